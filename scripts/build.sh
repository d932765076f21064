#!/usr/bin/env bash
# Builds the npm package into pkg/: the core compiled to wasm, its wasm-bindgen glue, the JS
# layer from js/, and pkg-template/'s package.json and README.
source "$(dirname "$0")/lib.sh"
say "compiling the core to wasm (release)"
# Optimized for size: the shipped module is downloaded by every browser user (issue #8's budget is
# 250 KB gzipped; this build is ~246 KB as the benchmark measures it). "s", not "z": "z" saves
# another ~25 KB gzipped but makes the synopses 2-4x slower, and per-crate "z" overrides for serde/serde_json/regex-lite change
# nothing (their generic code is instantiated, and optimized, in this crate). The size comes from
# the source instead: hand-rolled argument readers (src/json_fields.rs), one shared sort, no Unicode
# case tables. Native release builds keep opt-level 3.
CARGO_PROFILE_RELEASE_OPT_LEVEL=s cargo build --quiet --release --target wasm32-unknown-unknown --lib
rm -rf pkg
mkdir -p pkg/wasm
wasm-bindgen --target web --experimental-reset-state-function --out-dir pkg/wasm \
  target/wasm32-unknown-unknown/release/tool_stub.wasm
# Strings cross into wasm through encodeInto after their first 64 chars (see the script).
node scripts/patch-glue.mjs pkg/wasm/tool_stub.js
if command -v wasm-opt >/dev/null; then
  say "optimizing the module with wasm-opt"
  # -O3 --converge: ~1 KB gzipped smaller than -O3 at the same speed; -Os/-Oz save 1-3 KB more
  # but make JSON synopses up to 20% slower.
  wasm-opt -O3 --converge --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals pkg/wasm/tool_stub_bg.wasm -o pkg/wasm/tool_stub_bg.wasm
fi
cp -R js pkg/js
cp pkg-template/package.json pkg/
# The package README: its own introduction, then the user-facing sections of the project README.
{ cat pkg-template/README.md
  sed -n '/<!-- package-readme:start -->/,/<!-- package-readme:end -->/p' README.md | grep -v 'package-readme:'
} > pkg/README.md
cp LICENSE pkg/
say "package built in pkg/ ($(wc -c < pkg/wasm/tool_stub_bg.wasm) bytes of wasm)"
