#!/usr/bin/env bash
# Builds the npm package into pkg/: the core compiled to wasm, its wasm-bindgen glue, the JS
# layer from js/, and pkg-template/'s package.json and README.
source "$(dirname "$0")/lib.sh"
# The four wasm modules, each a thin binding crate over the core (Cargo.toml, src/) in bindings/:
#
# - main: the module every page loads. Optimized for size (budget: 250 KB gzipped as the
#   benchmark measures it). "s", not "z": "z" saves another ~25 KB gzipped but makes the synopses
#   2-4x slower, and per-crate "z" overrides for serde/serde_json change nothing (their generic code
#   is instantiated, and optimized, in the core). The size comes from the source instead:
#   hand-rolled argument readers (src/json_fields.rs), one shared sort, no Unicode case tables.
#   Without enhanced mode's analyzers: they are the enhanced module's, which the main one asks
#   through its host.
# - grep: regex engine and Unicode tables, loaded on the first search with
#   regex/ignoreCase/wholeWord. opt-level 3: its inner loops (lazy DFA, prefilters) are what a
#   search waits on; wasm SIMD (simd128, in every evergreen browser and Node 16.4+) makes memchr's
#   literal search several times faster.
# - enhanced: enhanced mode's analyzers, loaded the first time an enhanced synopsis is needed.
#   opt-level 3 and simd128 like grep: enhanced synopses of large outputs are held to a time budget
#   against the reference's.
# - extras: the bindings of features few sessions use (resolving refs, reads by lines/JSON
#   pointer/rows, the context governor's plan, restore, searchAll's plan and ranking), loaded on
#   their first use: ~32 KB gzipped the main module does not carry. Built as main is ("s", the same
#   target directory, so the two share their compiled dependencies).
#
# One `cargo build` per module: one invocation for several would unify the core's features
# (linking the analyzers into every module). grep and enhanced share a target directory (same
# flags, so they share their compiled dependencies); main uses the default one, so neither's flags
# rebuild the other's dependencies. Native release builds keep opt-level 3.
# wasm-opt -O3 --converge: ~1 KB gzipped smaller than -O3 at the same speed; -Os/-Oz save 1-3 KB
# more but make JSON synopses up to 20% slower.
# Fields: binding crate, module (file name in pkg/wasm), opt-level, RUSTFLAGS, target directory.
MODULES=(
  "main tool_stub s - target"
  "grep tool_stub_grep 3 -Ctarget-feature=+simd128 target/wasm-simd128"
  "enhanced tool_stub_enhanced 3 -Ctarget-feature=+simd128 target/wasm-simd128"
  "extras tool_stub_extras s - target"
)
rm -rf pkg
mkdir -p pkg/wasm
for entry in "${MODULES[@]}"; do
  read -r crate module opt_level rustflags target_dir <<<"$entry"
  [ "$rustflags" = - ] && rustflags=
  say "compiling the $crate module to wasm (release, opt-level $opt_level${rustflags:+, $rustflags})"
  RUSTFLAGS="$rustflags" CARGO_PROFILE_RELEASE_OPT_LEVEL="$opt_level" CARGO_TARGET_DIR="$target_dir" \
    cargo build --quiet --release --target wasm32-unknown-unknown -p "tool-stub-$crate" --lib
  built="$target_dir/wasm32-unknown-unknown/release/tool_stub_$crate.wasm"
  wasm-bindgen --target web --experimental-reset-state-function --out-dir pkg/wasm --out-name "$module" "$built"
  # Strings cross into wasm through encodeInto after their first 64 chars (see the script).
  node scripts/patch-glue.mjs "pkg/wasm/$module.js"
  if command -v wasm-opt >/dev/null; then
    wasm-opt -O3 --converge --enable-simd --enable-bulk-memory --enable-nontrapping-float-to-int \
      --enable-sign-ext --enable-mutable-globals "pkg/wasm/${module}_bg.wasm" -o "pkg/wasm/${module}_bg.wasm"
  fi
done
cp -R js pkg/js
cp pkg-template/package.json pkg/
# The package README: its own introduction, then the user-facing sections of the project README.
{ cat pkg-template/README.md
  sed -n '/<!-- package-readme:start -->/,/<!-- package-readme:end -->/p' README.md | grep -v 'package-readme:'
} > pkg/README.md
cp LICENSE pkg/
# The package README links to the topic pages.
cp -R docs pkg/docs
say "package built in pkg/ ($(wc -c < pkg/wasm/tool_stub_bg.wasm) bytes of wasm, grep module $(wc -c < pkg/wasm/tool_stub_grep_bg.wasm), enhanced module $(wc -c < pkg/wasm/tool_stub_enhanced_bg.wasm), extras module $(wc -c < pkg/wasm/tool_stub_extras_bg.wasm))"
