#!/usr/bin/env bash
# Runs every test suite: cargo tests (with the parity corpus), wasm-bindgen tests in Node and in
# headless Chromium, JS tests against the built package, and browser tests. Each suite's count is
# checked: a suite that ran zero tests fails the run. Ends with one line `N passed, N failed`.
source "$(dirname "$0")/lib.sh"
export CHROMEDRIVER=/usr/bin/chromedriver
# Counting pipelines below end in awk; a grep that finds nothing must not end the run.
set +o pipefail

bash scripts/setup.sh --test
bash scripts/build.sh

logs="$ROOT/test-output/logs"
rm -rf "$ROOT/test-output"
mkdir -p "$logs"
total_passed=0
total_failed=0
total_skipped=0
broken=()

# record SUITE PASSED FAILED SKIPPED EXIT_CODE
record() {
  local suite=$1 passed=$2 failed=$3 skipped=$4 status=$5
  total_passed=$((total_passed + passed))
  total_failed=$((total_failed + failed))
  total_skipped=$((total_skipped + skipped))
  say "suite $suite: $passed passed, $failed failed, $skipped skipped (exit $status)"
  if [ "$status" -ne 0 ] || [ "$failed" -ne 0 ]; then
    broken+=("$suite failed")
  elif [ "$passed" -eq 0 ]; then
    broken+=("$suite ran no test")
  fi
}

# Counters: each reads a suite's log and prints "PASSED FAILED SKIPPED".

# libtest's `test result:` lines (cargo test, wasm-bindgen-test-runner), summed. Parity checks whose
# corpus is absent pass vacuously and say PARITY-SKIPPED: they count as skipped, not passed.
count_libtest() {
  local passed failed skipped
  passed=$(grep -aoE 'test result: [A-Za-z]+\. [0-9]+ passed' "$1" | awk '{s+=$4} END {print s+0}')
  failed=$(grep -aoE '; [0-9]+ failed' "$1" | awk '{s+=$2} END {print s+0}')
  skipped=$(grep -ac '^PARITY-SKIPPED' "$1" || true)
  echo "$((passed - skipped)) $failed $skipped"
}

# node --test's TAP summary.
count_node_test() {
  local passed failed skipped
  passed=$(grep -aE '^# pass [0-9]+' "$1" | awk '{print $3}' | tail -n 1)
  failed=$(grep -aE '^# fail [0-9]+' "$1" | awk '{print $3}' | tail -n 1)
  skipped=$(grep -aE '^# (skipped|todo) [0-9]+' "$1" | awk '{s+=$3} END {print s+0}')
  echo "${passed:-0} ${failed:-0} ${skipped:-0}"
}

# Our own runners' last `N passed, N failed[, N skipped]` line.
count_plain() {
  local line
  line=$(grep -aE '^[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
  awk '{print $1+0, $3+0, $5+0}' <<<"${line:-0 passed, 0 failed}"
}

# A compile check of the fuzz targets: each target (a [[bin]] of tests/fuzz) counts as one check.
count_fuzz_build() {
  local targets
  targets=$(grep -c '^\[\[bin\]\]' tests/fuzz/Cargo.toml)
  if grep -aq '^error' "$1"; then echo "0 $targets 0"; else echo "$targets 0 0"; fi
}

# biome's summary: each file checked (lint and format) is one check; each error or warning fails one.
count_biome() {
  local checked problems
  checked=$(grep -aoE 'Checked [0-9]+ files?' "$1" | awk '{print $2}' | tail -n 1)
  problems=$(grep -aoE 'Found [0-9]+ (errors?|warnings?)' "$1" | awk '{s+=$2} END {print s+0}')
  if [ "$problems" -ne 0 ]; then echo "0 $problems 0"; else echo "${checked:-0} 0 0"; fi
}

# tsc's listing (--listFiles): each of the project's own files it checked is one check; each error
# fails one.
count_tsc() {
  local checked errors
  checked=$(grep -aE "^$ROOT/(js|tests/types)/" "$1" | grep -vc '/node_modules/' || true)
  errors=$(grep -acE 'error TS[0-9]+' "$1" || true)
  if [ "$errors" -ne 0 ]; then echo "0 $errors 0"; else echo "${checked:-0} 0 0"; fi
}

# A gate (a formatter or linter over the whole workspace) is one check: passed when it exits 0.
count_gate() {
  if grep -aq '^GATE-PASSED$' "$1"; then echo "1 0 0"; else echo "0 1 0"; fi
}

# gate COMMAND...: runs COMMAND and says whether it passed (what count_gate reads).
gate() {
  local status=0
  "$@" || status=$?
  if [ "$status" -eq 0 ]; then echo GATE-PASSED; else echo GATE-FAILED; fi
  return "$status"
}

# run_suite SUITE COUNTER COMMAND...: runs a suite into its log and records what COUNTER reads.
run_suite() {
  local suite=$1 counter=$2
  shift 2
  local log="$logs/$suite.log" status=0 passed failed skipped
  say "running $suite: $*"
  "$@" >"$log" 2>&1 || status=$?
  read -r passed failed skipped < <("$counter" "$log")
  # A wasm-bindgen test binary built for the wrong mode says "skipping" and exits 0.
  if [[ $suite == wasm-* ]] && grep -aq 'skipping' "$log"; then
    say "$suite printed 'skipping': the test binary was built for another mode"
    status=1
  fi
  [ "$status" -ne 0 ] && tail -n 80 "$log" >&2
  record "$suite" "$passed" "$failed" "$skipped" "$status"
}

# The Rust gates: every crate of the workspace formatted by rustfmt, and no clippy warning in any
# target (a lint is allowed only where the code says why, with `reason = "..."`).
run_suite rustfmt count_gate gate cargo fmt --all --check
run_suite clippy count_gate gate cargo clippy --workspace --all-targets -- -D warnings
# (The JavaScript gates, lint/format and the type check, run beside the JS suites below.)
run_suite cargo count_libtest cargo test --no-fail-fast -- --show-output
# The grep and enhanced modules' crates (bindings/), workspace members that `cargo test` at the
# root (the core) does not run.
run_suite cargo-grep count_libtest cargo test --no-fail-fast -p tool-stub-grep
run_suite cargo-enhanced count_libtest cargo test --no-fail-fast -p tool-stub-enhanced
# The main module's binding (bindings/main), compiled to wasm and run in Node and in Chromium.
# wasm-pack hands `-- ARGS` to cargo only when it runs in the crate's own folder (given a path,
# it puts them after cargo's own `--`, where the test runner refuses them).
in_folder() {
  local folder=$1
  shift
  (cd "$folder" && "$@")
}
run_suite wasm-node count_libtest in_folder bindings/main wasm-pack test --node -- --test wasm_node
run_suite wasm-chromium count_libtest in_folder bindings/main wasm-pack test --headless --chrome -- --test wasm_browser
# The JS lint and format gate (biome.json): the source, tests, scripts and demo as committed.
run_suite biome count_biome npx --no-install biome ci --colors=off --error-on-warnings
# The JS source type-checked from its JSDoc (tsc --strict --checkJs, no implicit `any`: tests/types/tsconfig.json),
# and the public .d.ts checked against it (tests/types/contract.ts); reads pkg/wasm's glue types.
run_suite typecheck count_tsc npx --no-install tsc -p tests/types/tsconfig.json --listFiles
run_suite js count_node_test node --test --test-reporter=tap tests/js/
for runner in tests/browser/*-runner.mjs; do
  run_suite "browser-$(basename "$runner" -runner.mjs)" count_plain node "$runner"
done

# The fuzz targets (tests/fuzz, scripts/fuzz.sh) are not run here, but they must keep compiling
# against the core's API; they need the nightly toolchain.
if cargo +nightly --version >/dev/null 2>&1; then
  run_suite fuzz-build count_fuzz_build cargo +nightly check --manifest-path tests/fuzz/Cargo.toml
else
  say "no nightly toolchain: the fuzz targets were not compiled (1 check skipped)"
  total_skipped=$((total_skipped + 1))
fi

say "logs in test-output/logs/"
if [ "${#broken[@]}" -ne 0 ]; then
  say "FAILED: ${broken[*]}"
  [ "$total_failed" -eq 0 ] && total_failed=${#broken[@]}
fi
if [ "$total_skipped" -ne 0 ]; then
  echo "$total_passed passed, $total_failed failed, $total_skipped skipped"
else
  echo "$total_passed passed, $total_failed failed"
fi
[ "${#broken[@]}" -eq 0 ]
