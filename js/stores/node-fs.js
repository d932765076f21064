// File-system store (Node only). Key ["s1","tool-results","tr_x","output.txt"]
// lives at <dir>/s1/tool-results/tr_x/output.txt: the reference layout that
// other tools read, so values are plain UTF-8 (WTF-8 only for lone surrogates).
//
// A key cannot be both a value and a prefix of another key here (a path is
// a file or a directory, not both); saving such a key fails with STORE_FAILED.

import * as fs from "node:fs/promises";
import * as path from "node:path";
import { getSystemErrorMap } from "node:util";
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { ToolStubError, caught } from "./errors.js";
import {
  compareKeys,
  validateKey,
  validatePrefix,
  validateSegment,
  validateSliceBounds,
  validateValue,
} from "./keys.js";
import { decode, encode, utf16Length } from "./wtf8.js";
import { acquireLocal } from "./lock.js";

/** @typedef {import("./store.js").StoreKey} StoreKey */
/** @typedef {import("./store.js").StoreEntry} StoreEntry */

// A lock whose holder stopped renewing it this long ago is stale, whatever its pid says.
const DEFAULT_LEASE_MS = 60_000;
// How long lock() waits for a live holder before it fails.
const DEFAULT_LOCK_WAIT_MS = 120_000;
// A takeover guard or an unreadable lock file (its writer died between creating and filling it)
// older than this is stale.
const GUARD_STALE_MS = 5_000;

// Temp files written by save() before their atomic rename (`.<name>.<pid>.<hex>.tmp`); never
// values. A crash between the write and the rename leaves one behind: see reclaimTempFile.
const TEMP_FILE = /^\..+\.(\d+)\.[0-9a-f]{16}\.tmp$/;
// A temp file this old is a leftover whoever wrote it: no save takes an hour.
const TEMP_MAX_AGE_MS = 60 * 60 * 1000;
// The temp files this process is writing now (absolute paths): never leftovers.
/** @type {Set<string>} */
const writing = new Set();

// Errors meaning "there is no value at this path": missing, a parent is a file, the path is a
// directory (only longer keys live under it), or a segment is longer than the file system's
// names can be (no value can exist there).
/** @type {Set<unknown>} */
const ABSENT = new Set(["ENOENT", "ENOTDIR", "EISDIR", "ENAMETOOLONG"]);

/**
 * A STORE_FAILED naming the key, relative to the store, and the OS error code with its
 * description. Never the absolute path (these messages can reach the model); the cause keeps it.
 * @param {string} what
 * @param {readonly string[]} key
 * @param {unknown} err
 */
function failed(what, key, err) {
  const fields = caught(err);
  const code = typeof fields?.code === "string" ? fields.code : undefined;
  const errno = fields?.errno;
  const description =
    typeof errno === "number" && Number.isInteger(errno)
      ? getSystemErrorMap().get(errno)?.[1]
      : undefined;
  const why = code
    ? `${code}${description ? ` (${description})` : ""}`
    : String(fields?.name ?? "Error");
  const where = key.length === 0 ? "the store's folder" : key.join("/");
  return new ToolStubError("STORE_FAILED", `${what} ${where}: ${why}`, { cause: err });
}

/**
 * Creates `dir` and its missing parents; true when `dir` itself was created. Node's own
 * `mkdir({ recursive: true })` never settles for some paths (under /proc it spins forever); this
 * walks up at most once per missing level and fails with the OS error.
 * @param {string} dir
 * @returns {Promise<boolean>}
 */
async function makeDir(dir) {
  try {
    await fs.mkdir(dir);
    return true;
  } catch (err) {
    if (caught(err)?.code === "EEXIST") return false;
    const parent = path.dirname(dir);
    if (caught(err)?.code !== "ENOENT" || parent === dir) throw err;
    await makeDir(parent);
    try {
      await fs.mkdir(dir);
      return true;
    } catch (again) {
      if (caught(again)?.code === "EEXIST") return false;
      throw again;
    }
  }
}

/**
 * Whether process `pid` is gone (on this host: the check cannot see other pid namespaces).
 * @param {number} pid
 */
function processGone(pid) {
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return caught(err)?.code === "ESRCH";
  }
}

/**
 * Removes the temp file `name` in `dir` when it is a leftover of a save that will never finish:
 * its writer is this process but not writing it now, or a process that is gone, or it is older
 * than an hour. Best effort: a store it cannot clean still works.
 * @param {string} dir
 * @param {string} name
 */
async function reclaimTempFile(dir, name) {
  const match = TEMP_FILE.exec(name);
  if (!match) return;
  const file = path.join(dir, name);
  if (writing.has(file)) return;
  const pid = Number(match[1]);
  let leftover = pid === process.pid || processGone(pid);
  if (!leftover) {
    const stat = await fs.lstat(file).catch(() => undefined);
    leftover = stat !== undefined && Date.now() - stat.mtimeMs > TEMP_MAX_AGE_MS;
  }
  if (leftover) await fs.unlink(file).catch(() => {});
}

export class NodeFsStore {
  /**
   * The locks this store holds or waits for, by lock file: its own callers queue here, in order,
   * instead of polling the file. Any other store over the same folder, in this process or
   * another, meets them at the lock file itself (its holder's pid is alive: not stale).
   * @type {Map<string, Promise<unknown>>}
   */
  #locks = new Map();

  /** @param {string} dir root directory; created on first save */
  constructor(dir) {
    if (typeof dir !== "string" || dir === "") {
      throw new ToolStubError("INVALID_ARGUMENT", "NodeFsStore needs a directory path");
    }
    this.dir = path.resolve(dir);
  }

  // Validation already rules out separators and dot segments; the check that
  // the resolved path stays inside `dir` is defence in depth.
  /** @param {readonly string[]} segments */
  #path(segments) {
    const p = path.resolve(this.dir, ...segments);
    if (p !== this.dir && !p.startsWith(this.dir + path.sep)) {
      throw new ToolStubError(
        "INVALID_ARGUMENT",
        `key ${JSON.stringify(segments)} resolves outside the store`,
      );
    }
    return p;
  }

  /** @param {StoreKey} key */
  async load(key) {
    validateKey(key);
    const file = this.#path(key);
    let bytes;
    try {
      bytes = await fs.readFile(file);
    } catch (err) {
      if (ABSENT.has(caught(err)?.code)) return undefined;
      throw failed("cannot read", key, err);
    }
    return decode(bytes);
  }

  /**
   * @param {StoreKey} key
   * @param {string} value
   */
  async save(key, value) {
    validateKey(key);
    validateValue(value);
    const file = this.#path(key);
    const dir = path.dirname(file);
    const tmp = path.join(
      dir,
      `.${path.basename(file)}.${process.pid}.${randomBytes(8).toString("hex")}.tmp`,
    );
    writing.add(tmp);
    try {
      // Write + fsync the temp file, then rename over the target: readers see
      // the old or the new value, never a partial one, even across a crash.
      const fh = await this.#openTemp(dir, tmp);
      try {
        await fh.writeFile(encode(value));
        await fh.sync();
      } finally {
        await fh.close();
      }
      await fs.rename(tmp, file);
    } catch (err) {
      await fs.rm(tmp, { force: true }).catch(() => {});
      throw failed("cannot write", key, err);
    } finally {
      writing.delete(tmp);
    }
  }

  // Directories this store created or already swept of leftover temp files (see #openTemp).
  /** @type {Set<string>} */
  #swept = new Set();

  /**
   * Opens a new temp file in `dir`, creating the directory when it is missing. The first save
   * into a directory that was already there (a result written again after a crash, say) first
   * removes the temp files crashed saves left in it.
   * @param {string} dir
   * @param {string} tmp
   */
  async #openTemp(dir, tmp) {
    if (!this.#swept.has(dir)) {
      const created = await makeDir(dir);
      if (!created) {
        const names = await fs.readdir(dir).catch(() => /** @type {string[]} */ ([]));
        await Promise.all(names.map((name) => reclaimTempFile(dir, name)));
      }
      if (this.#swept.size >= 10_000) this.#swept.clear();
      this.#swept.add(dir);
    }
    try {
      return await fs.open(tmp, "wx");
    } catch (err) {
      // Removed behind the store's back since it was swept: make it again, once.
      if (caught(err)?.code !== "ENOENT") throw err;
      await makeDir(dir);
      return fs.open(tmp, "wx");
    }
  }

  /** @param {StoreKey} key */
  async remove(key) {
    validateKey(key);
    const file = this.#path(key);
    try {
      await fs.unlink(file);
    } catch (err) {
      // EPERM is what some platforms report for unlink() on a directory.
      if (ABSENT.has(caught(err)?.code) || (caught(err)?.code === "EPERM" && (await isDir(file))))
        return;
      throw failed("cannot remove", key, err);
    }
  }

  /**
   * @param {string[]} prefix
   * @returns {Promise<StoreEntry[]>}
   */
  async loadRange(prefix) {
    validatePrefix(prefix);
    /** @type {StoreEntry[]} */
    const out = [];
    await this.#collect(prefix, out);
    // Directory order is arbitrary, and UTF-8 byte order differs from UTF-16
    // code unit order for astral characters, so sort explicitly.
    return out.sort((a, b) => compareKeys(a.key, b.key));
  }

  /**
   * @param {StoreKey} key
   * @param {StoreEntry[]} out
   */
  async #collect(key, out) {
    const p = this.#path(key);
    let stat;
    try {
      stat = await fs.lstat(p);
    } catch (err) {
      if (ABSENT.has(caught(err)?.code)) return;
      throw failed("cannot stat", key, err);
    }
    if (stat.isFile()) {
      if (key.length === 0) return;
      const value = await this.load(key);
      // Removed between lstat and read: not part of the range any more.
      if (value !== undefined) out.push({ key, value });
    } else if (stat.isDirectory()) {
      let names;
      try {
        names = await fs.readdir(p);
      } catch (err) {
        if (ABSENT.has(caught(err)?.code)) return;
        throw failed("cannot list", key, err);
      }
      for (const name of names) {
        if (TEMP_FILE.test(name)) {
          // Session-level calls walk here: the place to reclaim what crashed saves left.
          await reclaimTempFile(p, name);
          continue;
        }
        if (!isValidSegment(name)) continue;
        await this.#collect([...key, name], out);
      }
    }
    // Symlinks and other special files are not values: skipped, never followed.
  }

  /**
   * The keys loadRange(prefix) would return, sorted the same way, without reading any file.
   * @param {string[]} prefix
   * @returns {Promise<StoreKey[]>}
   */
  async loadKeys(prefix) {
    validatePrefix(prefix);
    /** @type {StoreKey[]} */
    const out = [];
    const p = this.#path(prefix);
    let stat;
    try {
      stat = await fs.lstat(p);
    } catch (err) {
      if (ABSENT.has(caught(err)?.code)) return out;
      throw failed("cannot stat", prefix, err);
    }
    if (stat.isFile()) {
      if (prefix.length > 0) out.push([...prefix]);
    } else if (stat.isDirectory()) {
      await this.#collectKeys(prefix, out);
    }
    return out.sort(compareKeys);
  }

  /**
   * @param {string[]} prefix
   * @param {StoreKey[]} out
   * @returns {Promise<void>}
   */
  async #collectKeys(prefix, out) {
    const p = this.#path(prefix);
    let entries;
    try {
      entries = await fs.readdir(p, { withFileTypes: true });
    } catch (err) {
      if (ABSENT.has(caught(err)?.code)) return;
      throw failed("cannot list", prefix, err);
    }
    /** @type {string[][]} */
    const dirs = [];
    for (const entry of entries) {
      if (TEMP_FILE.test(entry.name)) {
        // Session-level calls list keys here: the place to reclaim what crashed saves left.
        await reclaimTempFile(p, entry.name);
        continue;
      }
      if (!isValidSegment(entry.name)) continue;
      if (entry.isFile()) out.push([...prefix, entry.name]);
      else if (entry.isDirectory()) dirs.push([...prefix, entry.name]);
      // Symlinks and other special files are not values, as in loadRange.
    }
    // A few directories at a time: a session holds thousands of result directories.
    for (let i = 0; i < dirs.length; i += 16) {
      await Promise.all(dirs.slice(i, i + 16).map((dir) => this.#collectKeys(dir, out)));
    }
  }

  /**
   * An exclusive lock named by `key`, across processes: a lock file created with O_EXCL that holds
   * `{ pid, host, token }` and whose mtime the holder renews. A lock whose holder died (same host
   * and its pid is gone) or stopped renewing for `leaseMs` is taken over, and the taker is told
   * (`recovered: true`): the holder may have died between two writes.
   * @param {StoreKey} key
   * @param {{ leaseMs?: number, waitMs?: number }} [options]
   * @returns {Promise<import("./store.js").StoreLock>}
   */
  async lock(key, { leaseMs = DEFAULT_LEASE_MS, waitMs = DEFAULT_LOCK_WAIT_MS } = {}) {
    validateKey(key);
    const file = this.#path(key);
    const releaseLocal = await acquireLocal(this.#locks, file);
    try {
      const token = randomBytes(8).toString("hex");
      const content = JSON.stringify({ pid: process.pid, host: hostname(), token });
      const recovered = await this.#takeLockFile(key, file, content, leaseMs, Date.now() + waitMs);
      const renew = setInterval(
        () => {
          const now = new Date();
          fs.utimes(file, now, now).catch(() => {});
        },
        Math.max(1_000, Math.floor(leaseMs / 3)),
      );
      renew.unref?.();
      let released = false;
      const release = async () => {
        if (released) return;
        released = true;
        clearInterval(renew);
        try {
          // Only our own lock: one judged stale and taken over is the taker's now.
          if ((await fs.readFile(file, "utf8").catch(() => "")) === content) await fs.unlink(file);
        } catch (err) {
          if (!ABSENT.has(caught(err)?.code)) throw failed("cannot release the lock", key, err);
        } finally {
          releaseLocal();
        }
      };
      return { recovered, release };
    } catch (err) {
      releaseLocal();
      throw err;
    }
  }

  /**
   * Creates the lock file, waiting for a live holder or taking over a dead one's; true when taken over.
   * @param {StoreKey} key
   * @param {string} file
   * @param {string} content
   * @param {number} leaseMs
   * @param {number} deadline
   * @returns {Promise<boolean>}
   */
  async #takeLockFile(key, file, content, leaseMs, deadline) {
    let pause = 2;
    let madeDir = false;
    for (;;) {
      try {
        const fh = await fs.open(file, "wx");
        try {
          await fh.writeFile(content);
        } finally {
          await fh.close();
        }
        return false;
      } catch (err) {
        if (caught(err)?.code === "ENOENT" && !madeDir) {
          // Once: a folder that cannot be made fails below with the OS error.
          madeDir = true;
          await makeDir(path.dirname(file)).catch((mkdirError) => {
            throw failed("cannot create the lock", key, mkdirError);
          });
          continue;
        }
        if (caught(err)?.code !== "EEXIST") throw failed("cannot create the lock", key, err);
      }
      const seen = await lockState(file);
      if (
        seen !== undefined &&
        isStale(seen, leaseMs) &&
        (await this.#takeOver(file, seen, content))
      )
        return true;
      if (Date.now() > deadline) {
        const holder =
          seen?.holder?.pid === undefined ? "another process" : `process ${seen.holder.pid}`;
        throw new ToolStubError(
          "STORE_FAILED",
          `the lock ${path.basename(file)} is held by ${holder}: gave up waiting`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
      pause = Math.min(pause * 2, 50);
    }
  }

  /**
   * Replaces a stale lock file with ours, under a guard file so two takers cannot both win: the
   * lock is re-read under the guard and replaced (temp file + rename) only if unchanged.
   * @param {string} file
   * @param {LockState} seen
   * @param {string} content
   */
  async #takeOver(file, seen, content) {
    const guard = `${file}.takeover`;
    try {
      await (await fs.open(guard, "wx")).close();
    } catch (err) {
      if (caught(err)?.code !== "EEXIST") return false;
      // A taker that died holding the guard leaves it behind: clear it for the next round.
      const age = await fs.stat(guard).then(
        (st) => Date.now() - st.mtimeMs,
        () => 0,
      );
      if (age > GUARD_STALE_MS) await fs.unlink(guard).catch(() => {});
      return false;
    }
    try {
      const now = await lockState(file);
      if (now === undefined || now.text !== seen.text) return false;
      const tmp = path.join(
        path.dirname(file),
        `.${path.basename(file)}.${process.pid}.${randomBytes(8).toString("hex")}.tmp`,
      );
      await fs.writeFile(tmp, content, { flag: "wx" });
      await fs.rename(tmp, file);
      return true;
    } finally {
      await fs.unlink(guard).catch(() => {});
    }
  }

  /** @param {string[]} prefix */
  async removeRange(prefix) {
    validatePrefix(prefix);
    const p = this.#path(prefix);
    try {
      if (prefix.length > 0) {
        await fs.rm(p, { recursive: true, force: true });
      } else {
        // Empty prefix: clear the store's contents but keep its directory.
        const names = await fs
          .readdir(p)
          .catch((err) => (ABSENT.has(caught(err)?.code) ? [] : Promise.reject(err)));
        await Promise.all(
          names.map((n) => fs.rm(path.join(p, n), { recursive: true, force: true })),
        );
      }
    } catch (err) {
      if (ABSENT.has(caught(err)?.code)) return;
      throw failed("cannot remove", prefix, err);
    }
  }

  /**
   * loadSlice positions are byte offsets into the file (UTF-8/WTF-8).
   * @returns {"utf8"}
   */
  get sliceUnit() {
    return "utf8";
  }

  /**
   * Bytes start..end of the file (end clamped to its size), decoded; undefined if there is no
   * value. Reads only that span: the caller picks bounds on character boundaries.
   * @param {StoreKey} key
   * @param {number} start
   * @param {number} end
   */
  async loadSlice(key, start, end) {
    validateKey(key);
    validateSliceBounds(start, end);
    return this.#readOpen(key, async (fh) => {
      const buf = new Uint8Array(end - start);
      let filled = 0;
      while (filled < buf.length) {
        const { bytesRead } = await fh.read(buf, filled, buf.length - filled, start + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return decode(buf.subarray(0, filled));
    });
  }

  /**
   * Length in UTF-16 code units, counted from the bytes in 1 MiB chunks without decoding.
   * @param {StoreKey} key
   */
  async size(key) {
    validateKey(key);
    return this.#readOpen(key, async (fh) => {
      const buf = new Uint8Array(1 << 20);
      let n = 0;
      for (;;) {
        const { bytesRead } = await fh.read(buf, 0, buf.length, null);
        if (bytesRead === 0) return n;
        n += utf16Length(buf.subarray(0, bytesRead));
      }
    });
  }

  /**
   * `read(fileHandle)` on the key's file, closed afterwards; undefined if there is no value.
   * @template T
   * @param {StoreKey} key
   * @param {(fh: import("node:fs/promises").FileHandle) => Promise<T>} read
   * @returns {Promise<T | undefined>}
   */
  async #readOpen(key, read) {
    const file = this.#path(key);
    let fh;
    try {
      fh = await fs.open(file, "r");
    } catch (err) {
      if (ABSENT.has(caught(err)?.code)) return undefined;
      throw failed("cannot open", key, err);
    }
    try {
      return await read(fh);
    } catch (err) {
      if (ABSENT.has(caught(err)?.code)) return undefined; // EISDIR: a directory holds no value
      if (err instanceof ToolStubError) throw err;
      throw failed("cannot read", key, err);
    } finally {
      await fh.close();
    }
  }
}

/**
 * What a lock file says: its text, its holder's `{ pid, host, token }` as parsed (anything a
 * process wrote), and how long ago it was last renewed.
 * @typedef {{ text: string, holder: { [field: string]: unknown } | undefined, ageMs: number }} LockState
 */

/**
 * `{ text, holder, ageMs }` of a lock file, or undefined when there is none.
 * @param {string} file
 * @returns {Promise<LockState | undefined>}
 */
async function lockState(file) {
  try {
    const [text, st] = await Promise.all([fs.readFile(file, "utf8"), fs.stat(file)]);
    let holder;
    try {
      holder = caught(JSON.parse(text));
    } catch {
      holder = undefined;
    }
    return { text, holder, ageMs: Date.now() - st.mtimeMs };
  } catch {
    return undefined;
  }
}

/**
 * Whether a lock's holder is gone: its process died (same host), or it stopped renewing.
 * @param {LockState} state
 * @param {number} leaseMs
 */
function isStale({ holder, ageMs }, leaseMs) {
  const pid = holder?.pid;
  if (typeof pid !== "number") return ageMs > GUARD_STALE_MS;
  if (ageMs > leaseMs) return true;
  if (holder?.host !== hostname() || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return caught(err)?.code === "ESRCH";
  }
}

/** @param {string} p */
async function isDir(p) {
  return fs.stat(p).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

/** @param {string} name */
function isValidSegment(name) {
  try {
    validateSegment(name);
    return true;
  } catch {
    return false;
  }
}
