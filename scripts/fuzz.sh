#!/usr/bin/env bash
# Runs every cargo-fuzz target (tests/fuzz) for N seconds each, one after another (default 600),
# seeding each from ../shared/parity/inputs when it is there. Corpora and crashes stay under
# tests/fuzz (git-ignored). Needs the nightly toolchain and cargo-fuzz (installed when missing).
# Usage: scripts/fuzz.sh [seconds] [target...]
source "$(dirname "$0")/lib.sh"
seconds=${1:-600}
shift || true
if ! rustup toolchain list | grep -q '^nightly'; then
  say "installing the nightly toolchain"
  rustup toolchain install nightly --profile minimal
fi
if ! command -v cargo-fuzz >/dev/null; then
  say "installing cargo-fuzz (about 2 minutes)"
  cargo install cargo-fuzz --locked
fi
fuzz_dir=tests/fuzz
targets=("$@")
[ "${#targets[@]}" -eq 0 ] && mapfile -t targets < <(cargo +nightly fuzz list --fuzz-dir "$fuzz_dir")
seeds="$ROOT/../shared/parity/inputs"
failed=()
for target in "${targets[@]}"; do
  corpus="$fuzz_dir/corpus/$target"
  mkdir -p "$corpus"
  dirs=("$corpus")
  [ -d "$seeds" ] && dirs+=("$seeds")
  say "fuzzing $target for ${seconds}s"
  # -rss_limit_mb: an input that makes a parser balloon is a finding, not a machine-wide OOM.
  if ! cargo +nightly fuzz run --fuzz-dir "$fuzz_dir" "$target" "${dirs[@]}" -- \
      -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=20 -max_len=262144; then
    failed+=("$target")
  fi
done
if [ "${#failed[@]}" -ne 0 ]; then
  say "findings in: ${failed[*]} (see $fuzz_dir/artifacts/)"
  exit 1
fi
say "no findings in ${targets[*]}"
