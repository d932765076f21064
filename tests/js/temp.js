// Temporary folders for tests, removed when the test file's process exits (passed or failed):
// a test run leaves nothing in the temp dir.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

const made = [];
process.on("exit", () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A new folder `<tmpdir>/<prefix>XXXXXX`, removed at exit. */
export function tempDir(prefix) {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
