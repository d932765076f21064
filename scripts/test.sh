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

# Sums libtest's `test result:` lines (cargo test, wasm-bindgen-test-runner).
count_libtest() {
  local log=$1
  local passed failed
  passed=$(grep -aoE 'test result: [A-Za-z]+\. [0-9]+ passed' "$log" | awk '{s+=$4} END {print s+0}')
  failed=$(grep -aoE '; [0-9]+ failed' "$log" | awk '{s+=$2} END {print s+0}')
  echo "$passed $failed"
}

run_suite_libtest() {
  local suite=$1
  shift
  local log="$logs/$suite.log" status=0
  say "running $suite: $*"
  "$@" >"$log" 2>&1 || status=$?
  read -r passed failed < <(count_libtest "$log")
  # Parity checks whose corpus is absent pass vacuously: count them as skipped, not passed.
  local skipped
  skipped=$(grep -ac '^PARITY-SKIPPED' "$log" || true)
  passed=$((passed - skipped))
  if grep -aq 'skipping' "$log" && grep -aqi 'wasm' <<<"$suite"; then
    say "$suite printed 'skipping': the test binary was built for another mode"
    status=1
  fi
  [ "$status" -ne 0 ] && tail -n 60 "$log" >&2
  record "$suite" "$passed" "$failed" "$skipped" "$status"
}

run_suite_node_test() {
  local suite=$1
  shift
  local log="$logs/$suite.log" status=0
  say "running $suite: $*"
  "$@" >"$log" 2>&1 || status=$?
  local passed failed skipped
  passed=$(grep -aE '^# pass [0-9]+' "$log" | awk '{print $3}' | tail -n 1)
  failed=$(grep -aE '^# fail [0-9]+' "$log" | awk '{print $3}' | tail -n 1)
  skipped=$(grep -aE '^# (skipped|todo) [0-9]+' "$log" | awk '{s+=$3} END {print s+0}')
  [ "$status" -ne 0 ] && grep -aB2 -A25 '^not ok\|# Subtest.*\n.*not ok' "$log" | head -n 120 >&2
  record "$suite" "${passed:-0}" "${failed:-0}" "${skipped:-0}" "$status"
}

# Runners of our own print `N passed, N failed[, N skipped]` as their last such line.
run_suite_plain() {
  local suite=$1
  shift
  local log="$logs/$suite.log" status=0
  say "running $suite: $*"
  "$@" >"$log" 2>&1 || status=$?
  local line passed failed skipped
  line=$(grep -aE '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
  passed=$(awk '{print $1}' <<<"$line")
  failed=$(awk '{print $3}' <<<"$line")
  skipped=$(grep -oE '[0-9]+ skipped' <<<"$line" | awk '{print $1}')
  [ "$status" -ne 0 ] && tail -n 40 "$log" >&2
  record "$suite" "${passed:-0}" "${failed:-0}" "${skipped:-0}" "$status"
}

run_suite_libtest cargo cargo test --no-fail-fast -- --show-output
run_suite_libtest wasm-node wasm-pack test --node -- --test wasm_node
run_suite_libtest wasm-chromium wasm-pack test --headless --chrome -- --test wasm_browser
run_suite_node_test js node --test --test-reporter=tap tests/js/
for runner in tests/browser/*-runner.mjs; do
  run_suite_plain "browser-$(basename "$runner" -runner.mjs)" node "$runner"
done

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
