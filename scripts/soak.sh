#!/usr/bin/env bash
# Crash, fault and concurrency soak of the built package on NodeFsStore (issue 14), outside the
# test command (tests/js/soak.test.js runs a short version of the first two):
#   1. tests/soak/crash.mjs: SIGKILL trials at random points of externalize/delete/prune;
#   2. tests/soak/faults.mjs: saves that throw, hang (storeTimeoutMs) or answer junk, loads that
#      answer junk, folders read-only mid-turn as user nobody (root + runuser), ENOSPC on a
#      1 MiB tmpfs (root + mount);
#   3. tests/soak/retention.mjs: 4 processes x 200 externalizes with retention into one session.
# Each prints its counts as JSON and fails on any violated invariant.
# Usage: scripts/soak.sh [trials (200)] [fault turns per scenario (100)] [externalizes per process (200)]
source "$(dirname "$0")/lib.sh"
trials=${1:-200}
turns=${2:-100}
count=${3:-200}
[ -f pkg/js/node.js ] || bash scripts/build.sh
status=0
say "crash: $trials SIGKILL trials"
node tests/soak/crash.mjs --trials "$trials" || status=1
say "faults: $turns turns per scenario"
node tests/soak/faults.mjs --turns "$turns" || status=1
say "retention: 4 processes x $count externalizes into one session"
node tests/soak/retention.mjs --processes 4 --count "$count" || status=1
exit $status
