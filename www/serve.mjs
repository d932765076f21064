#!/usr/bin/env node
// Tiny static server for the demo page: serves the repository root on 127.0.0.1 (Node's standard
// library only) so that www/index.html can import ../pkg/js/browser.js and fetch the wasm module.
//
// Usage: node www/serve.mjs [port]      (default 8080; 0 picks a free port)
// Build the package first: bash scripts/build.sh

import * as http from "node:http";
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PAGE = "/www/";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".csv": "text/csv; charset=utf-8",
  ".log": "text/plain; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".d.ts": "text/plain; charset=utf-8",
};

function send(res, status, text) {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
  res.end(text);
}

/** Resolves a URL path inside ROOT, or null when it would leave it (or is malformed). */
async function resolveFile(urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes("\0")) return null;
  // No dotfiles or dot-directories (.git, .env...).
  if (decoded.split(/[\\/]/).some((segment) => segment.startsWith(".") && segment !== "." && segment !== "..")) return null;
  let file = path.resolve(ROOT, "." + path.posix.normalize("/" + decoded));
  if (file !== ROOT && !file.startsWith(ROOT + path.sep)) return null;
  // Follow symlinks and check again, so a link cannot lead out of the root either.
  let real;
  try {
    real = await fs.realpath(file);
  } catch {
    return { file, missing: true };
  }
  const realRoot = await fs.realpath(ROOT);
  if (real !== realRoot && !real.startsWith(realRoot + path.sep)) return null;
  const stat = await fs.stat(real);
  if (stat.isDirectory()) {
    if (!urlPath.endsWith("/")) return { redirect: urlPath + "/" };
    file = path.join(real, "index.html");
    return { file, missing: false };
  }
  return { file: real, missing: false };
}

export function createServer() {
  return http.createServer(async (req, res) => {
    try {
      if (req.method !== "GET" && req.method !== "HEAD") return send(res, 405, "method not allowed");
      const url = new URL(req.url, "http://127.0.0.1");
      if (url.pathname === "/") {
        res.writeHead(302, { location: PAGE });
        return res.end();
      }
      const found = await resolveFile(url.pathname);
      if (found === null) return send(res, 403, "forbidden");
      if (found.redirect) {
        res.writeHead(301, { location: found.redirect + url.search });
        return res.end();
      }
      if (found.missing) return send(res, 404, "not found");
      const body = await fs.readFile(found.file);
      const name = path.basename(found.file);
      const type = name.endsWith(".d.ts") ? TYPES[".d.ts"] : TYPES[path.extname(name)] ?? "application/octet-stream";
      res.writeHead(200, {
        "content-type": type,
        "content-length": body.length,
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      });
      res.end(req.method === "HEAD" ? undefined : body);
    } catch (err) {
      send(res, err?.code === "ENOENT" || err?.code === "EISDIR" ? 404 : 500, err?.code ?? "error");
    }
  });
}

/** Starts the server; resolves with it once it listens. */
export function serve(port = 8080) {
  const server = createServer();
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const arg = process.argv[2];
  const port = arg === undefined ? 8080 : Number(arg);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`usage: node www/serve.mjs [port]   (got port ${JSON.stringify(arg)})`);
    process.exit(2);
  }
  try {
    await fs.access(path.join(ROOT, "pkg/js/browser.js"));
  } catch {
    console.error("note: pkg/ is not built yet: run `bash scripts/build.sh` first");
  }
  const server = await serve(port).catch((err) => {
    console.error(`cannot listen on 127.0.0.1:${port}: ${err.message}`);
    process.exit(1);
  });
  console.log(`tool-stub demo: http://127.0.0.1:${server.address().port}${PAGE}`);
}
