#!/usr/bin/env bash
# The benchmark table (README "Performance"): builds the release package, then times the public JS
# API in Node. Not part of scripts/test.sh. Pass --quick to skip the 100 MB rows.
source "$(dirname "$0")/lib.sh"
bash scripts/setup.sh
bash scripts/build.sh
node --max-old-space-size=4096 --expose-gc tests/bench/bench.mjs "$@"
