#!/usr/bin/env bash
# The main job: builds the package if needed, then runs the CLI on a bundled sample tool output
# (a 140 KB JSON API response): prints its stub, stores it in the filesystem store (./.tool-stub),
# then reads a window of it back and searches it.
source "$(dirname "$0")/lib.sh"
bash scripts/setup.sh
bash scripts/build.sh
sample=www/samples/orders.json
cli() { node pkg/js/cli.js "$@"; }

say "1/4 the stub the model would see instead of $sample ($(wc -c < "$sample") bytes):"
cli externalize "$sample" --session demo --tool-name http_get --tool-id call_orders --mime application/json
ref=$(cli list --session demo --tool-name http_get --json | node -e '
  let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.parse(s).toolResults[0].storage_uri));')
say "2/4 stored results of the session:"
cli list --session demo
say "3/4 read chars 0..400 of $ref:"
cli read "$ref" --session demo --offset 0 --limit 400
say "4/4 search for \"refunded\" (3 hits, 60 chars of context):"
cli search "$ref" refunded --session demo --limit 3 --context 60
