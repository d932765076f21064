#!/usr/bin/env bash
# The benchmark table (docs/performance.md): builds the release package, then times the public JS
# API in Node. Not part of scripts/test.sh. Pass --quick to skip the 100 MB rows. `--only=T[,T]`
# runs just those targets' rows; target `session` is the session-scale table (docs/performance.md, "Sessions at
# scale": 10,000 results in NodeFsStore, 2,000 in IndexedDbStore on fake-indexeddb and in headless
# Chromium, each call beside the same call at 20 results), run after the others; target `context`
# is the context governor's replayed 200-step conversation under four policies (docs/performance.md); target `refs`:
# the tokens that reach the model when a 300 KB page is edited and written back by ref vs by
# value (docs/performance.md, "Results passed by ref"). Target `tokens` (a row of bench.mjs):
# externalize with budgetUnit "tokens" against "chars" on 10 MB outputs.
source "$(dirname "$0")/lib.sh"
bash scripts/setup.sh
bash scripts/build.sh
only=""
for arg in "$@"; do
  case $arg in --only=*) only=${arg#--only=} ;; esac
done
if [ -z "$only" ] || [[ ",$only," != ",session," && ",$only," != ",context," && ",$only," != ",refs," ]]; then
  node --max-old-space-size=4096 --expose-gc tests/bench/bench.mjs "$@"
fi
if [ -z "$only" ] || [[ ",$only," == *,session,* ]]; then
  node --expose-gc tests/bench/session.mjs
fi
if [ -z "$only" ] || [[ ",$only," == *,context,* ]]; then
  node --max-old-space-size=4096 tests/bench/context.mjs
fi
if [ -z "$only" ] || [[ ",$only," == *,refs,* ]]; then
  node tests/bench/refs.mjs
fi
