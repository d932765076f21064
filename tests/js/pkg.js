// The JS tests run against the built package (pkg/, made by scripts/build.sh), never the sources.
export * from "../../pkg/js/node.js";

import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as path from "node:path";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const PARITY_DIR = process.env.TOOL_STUB_PARITY_DIR ?? path.resolve(ROOT, "../shared/parity");
export const HAS_PARITY = existsSync(path.join(PARITY_DIR, "cases.jsonl"));
export const SKIP_PARITY = HAS_PARITY ? false : "../shared/parity is absent: parity checks skipped, not passed";
