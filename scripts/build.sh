#!/usr/bin/env bash
# Builds the npm package into pkg/: the core compiled to wasm, its wasm-bindgen glue, the JS
# layer from js/, and pkg-template/'s package.json and README.
source "$(dirname "$0")/lib.sh"
say "compiling the core to wasm (release)"
# Optimized for size: the shipped module is downloaded by every browser user (issue #8's budget is
# 250 KB gzipped; this build is ~246 KB as the benchmark measures it). "s", not "z": "z" saves
# another ~25 KB gzipped but makes the synopses 2-4x slower, and per-crate "z" overrides for serde/serde_json change
# nothing (their generic code is instantiated, and optimized, in this crate). The size comes from
# the source instead: hand-rolled argument readers (src/json_fields.rs), one shared sort, no Unicode
# case tables. Native release builds keep opt-level 3. Without the `enhanced` feature: enhanced
# mode's analyzers are the third module's (below), which the main one asks through its host.
CARGO_PROFILE_RELEASE_OPT_LEVEL=s cargo build --quiet --release --target wasm32-unknown-unknown --lib \
  --no-default-features --features bindings
# The grep module (grep/: regex engine and Unicode tables), a second module loaded on the first
# search with regex/ignoreCase/wholeWord. opt-level 3: it is not loaded by every page, and its
# inner loops (lazy DFA, prefilters) are what a search waits on. wasm SIMD (simd128, in every
# evergreen browser and Node 16.4+) makes memchr's literal search several times faster; its own
# target directory keeps these flags from rebuilding the main module's dependencies.
say "compiling the grep module to wasm (release, simd128)"
RUSTFLAGS="-C target-feature=+simd128" CARGO_TARGET_DIR=target/grep-module \
  cargo build --quiet --release --target wasm32-unknown-unknown -p tool-stub-grep --lib
# The enhanced module (enhanced/: enhanced mode's analyzers), a third module loaded the first time
# an enhanced synopsis is needed. Built like the grep module, in its target directory, so the two
# share their compiled dependencies (a separate `cargo build`: one invocation for both would
# unify the core's features, linking the analyzers into the grep module's core too). opt-level 3:
# enhanced synopses of large outputs are held to a time budget against the reference's.
say "compiling the enhanced module to wasm (release, simd128)"
RUSTFLAGS="-C target-feature=+simd128" CARGO_TARGET_DIR=target/grep-module \
  cargo build --quiet --release --target wasm32-unknown-unknown -p tool-stub-enhanced --lib
rm -rf pkg
mkdir -p pkg/wasm
for built in target/wasm32-unknown-unknown/release/tool_stub.wasm \
  target/grep-module/wasm32-unknown-unknown/release/tool_stub_grep.wasm \
  target/grep-module/wasm32-unknown-unknown/release/tool_stub_enhanced.wasm; do
  module=$(basename "$built" .wasm)
  wasm-bindgen --target web --experimental-reset-state-function --out-dir pkg/wasm "$built"
  # Strings cross into wasm through encodeInto after their first 64 chars (see the script).
  node scripts/patch-glue.mjs "pkg/wasm/$module.js"
done
if command -v wasm-opt >/dev/null; then
  say "optimizing the modules with wasm-opt"
  # -O3 --converge: ~1 KB gzipped smaller than -O3 at the same speed; -Os/-Oz save 1-3 KB more
  # but make JSON synopses up to 20% slower.
  for module in tool_stub tool_stub_grep tool_stub_enhanced; do
    wasm-opt -O3 --converge --enable-simd --enable-bulk-memory --enable-nontrapping-float-to-int \
      --enable-sign-ext --enable-mutable-globals "pkg/wasm/${module}_bg.wasm" -o "pkg/wasm/${module}_bg.wasm"
  done
fi
cp -R js pkg/js
cp pkg-template/package.json pkg/
# The package README: its own introduction, then the user-facing sections of the project README.
{ cat pkg-template/README.md
  sed -n '/<!-- package-readme:start -->/,/<!-- package-readme:end -->/p' README.md | grep -v 'package-readme:'
} > pkg/README.md
cp LICENSE pkg/
# The package README links to the topic pages.
cp -R docs pkg/docs
say "package built in pkg/ ($(wc -c < pkg/wasm/tool_stub_bg.wasm) bytes of wasm, grep module $(wc -c < pkg/wasm/tool_stub_grep_bg.wasm), enhanced module $(wc -c < pkg/wasm/tool_stub_enhanced_bg.wasm))"
