#!/usr/bin/env bash
# Installs what building (and, with `--test`, testing) needs, each only when it is missing.
# Usage: scripts/setup.sh [--test]
source "$(dirname "$0")/lib.sh"
for_tests=false
[ "${1:-}" = "--test" ] && for_tests=true

# The CLI must be the crate's exact version: a module built by another version is refused.
bindgen_version=$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)".*/\1/p' Cargo.toml)

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "installing the Rust target wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $bindgen_version" ]; then
  say "installing wasm-bindgen-cli $bindgen_version (about 2 minutes)"
  cargo install wasm-bindgen-cli --version "$bindgen_version" --force
fi
if ! command -v wasm-opt >/dev/null; then
  say "installing wasm-opt (npm package binaryen)"
  npm install -g binaryen
fi
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing npm dev dependencies"
  npm ci --no-audit --no-fund
fi
if $for_tests; then
  if ! command -v wasm-pack >/dev/null; then
    say "installing wasm-pack (about 3 minutes)"
    cargo install wasm-pack
  fi
  if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
    say "installing chromium and chromedriver (apt)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
  fi
  # RedisStore's tests start their own servers (single and cluster) from this binary.
  if ! command -v redis-server >/dev/null || ! command -v redis-cli >/dev/null; then
    say "installing redis-server (apt)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
  fi
fi
say "setup complete"
