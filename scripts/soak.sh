#!/usr/bin/env bash
# Crash, fault and concurrency soak of the built package on NodeFsStore, outside the
# test command (tests/js/soak.test.js runs a short version of the first two):
#   1. tests/soak/crash.mjs: SIGKILL trials at random points of externalize/delete/prune;
#   2. tests/soak/faults.mjs: saves that throw, hang (storeTimeoutMs) or answer junk, loads that
#      answer junk, folders read-only mid-turn as user nobody (root + runuser), ENOSPC on a
#      1 MiB tmpfs (root + mount);
#   3. tests/soak/retention.mjs: 4 processes x 200 externalizes with retention into one session;
#   4. tests/soak/mcp-proxy.mjs: the MCP proxy around a crashing, hanging, cancelling and
#      double-answering server, 100 concurrent calls a round;
#   5. tests/soak/redis-pause.mjs: RedisStore turns while redis-server is paused (SIGSTOP) and
#      resumed (SIGCONT) under them (needs redis-server).
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
say "mcp-proxy: 20 rounds of 100 concurrent calls to a misbehaving server"
node tests/soak/mcp-proxy.mjs --rounds 20 --calls 100 || status=1
if command -v redis-server >/dev/null; then
  say "redis-pause: 30 pauses of redis-server mid-turn"
  node tests/soak/redis-pause.mjs --pauses 30 || status=1
else
  say "redis-server is not installed: redis-pause skipped"
fi
exit $status
