// Loading the MCP SDK (an optional peer dependency) for the commands that need it. Node resolves
// a bare import from the real path of this file, so a package installed from a folder or linked
// (`npm install ./tool-stub`, `npm link`) looks for the SDK beside its own sources, not in the
// project that installed it. The user's project is searched too: from the working directory and
// from the command's path as it was run (node_modules/.bin/tool-stub), through the SDK's
// package.json `exports` ("import" condition) as Node would.

import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { caught } from "../stores/errors.js";

const SDK = "@modelcontextprotocol/sdk";

/**
 * A package.json `exports` entry, as this reads it: a path, or conditions with an "import" or a
 * "default" path (the SDK's own shape).
 * @typedef {string | { import?: string, default?: string } | undefined} ExportTarget
 */

/** The folders a project's node_modules are looked for from, nearest first. */
function searchRoots() {
  const roots = [process.cwd()];
  if (process.argv[1]) roots.push(path.dirname(path.resolve(process.argv[1])));
  return roots;
}

/**
 * The SDK's package folder nearest to `start` (walking up, as Node does), or undefined.
 * @param {string} start
 */
function sdkFolderFrom(start) {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules", SDK);
    if (existsSync(path.join(candidate, "package.json"))) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * The file `subpath` ("server/index.js") names in the package at `folder`, by its exports map.
 * @param {string} folder
 * @param {string} subpath
 */
function exportedFile(folder, subpath) {
  /** @type {{ exports?: { [subpath: string]: ExportTarget } }} the package's package.json */
  const { exports } = JSON.parse(readFileSync(path.join(folder, "package.json"), "utf8"));
  const key = `./${subpath}`;
  /**
   * @param {ExportTarget} target
   * @returns {string}
   */
  const importOf = (target) => {
    const file = typeof target === "string" ? target : (target?.import ?? target?.default);
    if (file === undefined) throw new Error(`its ${key} export has no "import" or "default" path`);
    return file;
  };
  if (exports?.[key] !== undefined) return path.join(folder, importOf(exports[key]));
  for (const [pattern, target] of Object.entries(exports ?? {})) {
    const star = pattern.indexOf("*");
    if (star === -1) continue;
    const [before, after] = [pattern.slice(0, star), pattern.slice(star + 1)];
    if (key.startsWith(before) && key.endsWith(after) && key.length >= pattern.length - 1) {
      const middle = key.slice(before.length, key.length - after.length);
      return path.join(folder, importOf(target).replace("*", middle));
    }
  }
  return undefined;
}

/**
 * The SDK modules at `subpaths` ("server/index.js", ...), from beside tool-stub or else from the
 * user's project; an error that says what to do when neither has it (or it does not load).
 * The modules' types are the SDK's own, which this file cannot name (the specifiers are built at
 * run time): the caller reads them as it knows them.
 * @param {...string} subpaths
 * @returns {Promise<unknown[]>}
 */
export async function importSdk(...subpaths) {
  try {
    return await Promise.all(subpaths.map((p) => import(`${SDK}/${p}`)));
  } catch (error) {
    if (
      caught(error)?.code !== "ERR_MODULE_NOT_FOUND" ||
      !String(caught(error)?.message).includes(SDK)
    )
      throw new Error(`the MCP SDK (${SDK}) did not load: ${caught(error)?.message ?? error}`);
  }
  const roots = searchRoots();
  for (const root of roots) {
    const folder = sdkFolderFrom(root);
    if (!folder) continue;
    try {
      return await Promise.all(
        subpaths.map((p) => {
          const file = exportedFile(folder, p);
          if (!file) throw new Error(`it exports no ${p}`);
          return import(pathToFileURL(file).href);
        }),
      );
    } catch (error) {
      throw new Error(
        `the MCP SDK found at ${folder} did not load (${caught(error)?.message ?? error}); tool-stub needs ${SDK} 1.x`,
      );
    }
  }
  throw new Error(
    `this needs the MCP SDK next to tool-stub or in your project: npm install ${SDK} (looked beside tool-stub and from ${[...new Set(roots)].join(", ")})`,
  );
}
