// Runs the store conformance suite on every adapter, plus the checks that
// only make sense for one adapter (on-disk layout, IndexedDB error paths).
import { after, describe, it } from "node:test";
import * as assert from "node:assert/strict";
import * as fs from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";

import { runStoreConformance } from "./store-conformance.js";
import { MemoryStore } from "../../js/stores/memory.js";
import { NodeFsStore } from "../../js/stores/node-fs.js";
import { IndexedDbStore } from "../../js/stores/indexeddb.js";
import { ToolStubError } from "../../js/stores/errors.js";
import { lockedIncrements } from "./locked-increments.js";

const tmpRoot = await fs.mkdtemp(path.join(os.tmpdir(), "tool-stub-stores-"));
after(() => fs.rm(tmpRoot, { recursive: true, force: true }));
let dirCount = 0;
const freshDir = () => path.join(tmpRoot, `store-${dirCount++}`);

runStoreConformance("MemoryStore", () => new MemoryStore());
runStoreConformance("NodeFsStore", () => new NodeFsStore(freshDir()));
runStoreConformance(
  "IndexedDbStore (fake-indexeddb)",
  () => new IndexedDbStore({ indexedDB: new IDBFactory(), IDBKeyRange }),
);

describe("ToolStubError", () => {
  it("has a stable code, name and cause", () => {
    const cause = new Error("inner");
    const e = new ToolStubError("NOT_FOUND", "gone", { cause });
    assert.ok(e instanceof Error);
    assert.equal(e.name, "ToolStubError");
    assert.equal(e.code, "NOT_FOUND");
    assert.equal(e.message, "gone");
    assert.equal(e.cause, cause);
    assert.equal("cause" in new ToolStubError("CORRUPT", "x"), false);
  });
});

describe("NodeFsStore specifics", () => {
  it("uses the reference on-disk layout with plain UTF-8", async () => {
    const dir = freshDir();
    const s = new NodeFsStore(dir);
    await s.save(["s1", "tool-results", "tr_x", "output.txt"], "héllo 日本語 😀");
    const bytes = await fs.readFile(path.join(dir, "s1", "tool-results", "tr_x", "output.txt"));
    assert.deepEqual(bytes, Buffer.from("héllo 日本語 😀", "utf8"));
    assert.deepEqual(
      await fs.readdir(path.join(dir, "s1", "tool-results", "tr_x")),
      ["output.txt"],
      "no temp file left",
    );
  });

  it("two stores over one folder never interleave a read-modify-write under lock()", async () => {
    const dir = freshDir();
    const stores = [new NodeFsStore(dir), new NodeFsStore(dir)];
    assert.equal(await lockedIncrements(stores, 12), "12", "no increment was lost");
  });

  it("writes lone surrogates as WTF-8", async () => {
    const dir = freshDir();
    await new NodeFsStore(dir).save(["k"], "\uD800x\uDC00");
    assert.deepEqual(
      [...(await fs.readFile(path.join(dir, "k")))],
      [0xed, 0xa0, 0x80, 0x78, 0xed, 0xb0, 0x80],
    );
  });

  it("reads files written by other tools and ignores temp files and junk", async () => {
    const dir = freshDir();
    await fs.mkdir(path.join(dir, "s"), { recursive: true });
    await fs.writeFile(path.join(dir, "s", "a.txt"), "from python");
    await fs.writeFile(path.join(dir, "s", `.a.txt.123.${"0".repeat(16)}.tmp`), "half-written");
    await fs.symlink("/etc/hostname", path.join(dir, "s", "link")).catch(() => {});
    const s = new NodeFsStore(dir);
    assert.deepEqual(await s.loadRange(["s"]), [{ key: ["s", "a.txt"], value: "from python" }]);
  });

  it("reports bytes that are not UTF-8 as CORRUPT", async () => {
    const dir = freshDir();
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, "bad"), Buffer.from([0x61, 0xff, 0x62]));
    await assert.rejects(new NodeFsStore(dir).load(["bad"]), {
      name: "ToolStubError",
      code: "CORRUPT",
    });
  });

  it("a directory is not a value", async () => {
    const s = new NodeFsStore(freshDir());
    await s.save(["d", "leaf"], "v");
    assert.equal(await s.load(["d"]), undefined);
    assert.equal(await s.size(["d"]), undefined);
    await s.remove(["d"]); // no-op, keeps d/leaf
    assert.equal(await s.load(["d", "leaf"]), "v");
  });

  it("wraps other fs errors as STORE_FAILED with the cause", async () => {
    const s = new NodeFsStore(freshDir());
    await s.save(["f"], "a file");
    // ["f","g"] needs f to be a directory: the layout cannot hold both keys.
    const err = await s.save(["f", "g"], "x").catch((e) => e);
    assert.equal(err.code, "STORE_FAILED");
    assert.ok(err.cause, "cause is kept");
    assert.equal(await s.load(["f", "g"]), undefined, "missing, not ENOTDIR");
  });

  it("the root directory is created on demand and may not exist for reads", async () => {
    const s = new NodeFsStore(path.join(freshDir(), "deep", "er"));
    assert.deepEqual(await s.loadRange([]), []);
    await s.removeRange([]);
    await s.save(["x"], "1");
    assert.equal(await s.load(["x"]), "1");
  });
});

describe("IndexedDbStore specifics", () => {
  it("loads a value of many pieces (read a few per request) whole and in order, beside values of other keys", async () => {
    const s = new IndexedDbStore({ indexedDB: new IDBFactory(), IDBKeyRange, chunkChars: 7 });
    const value =
      Array.from({ length: 23 }, (_, i) => `piece ${String(i).padStart(2, "0")}|`).join("") +
      "😀end";
    await s.save(["a", "v"], value);
    await s.save(["a", "w"], `other ${value}`);
    await s.save(["a", "short"], "tiny");
    assert.equal(await s.load(["a", "v"]), value);
    assert.equal(await s.load(["a", "w"]), `other ${value}`);
    assert.equal(await s.load(["a", "short"]), "tiny");
    assert.equal(await s.load(["a", "none"]), undefined);
    await s.save(["a", "v"], "");
    assert.equal(await s.load(["a", "v"]), "");
  });

  it("shares a database with another object store name", async () => {
    const indexedDB = new IDBFactory();
    const a = new IndexedDbStore({ indexedDB, IDBKeyRange, storeName: "a" });
    await a.save(["k"], "in a");
    const b = new IndexedDbStore({ indexedDB, IDBKeyRange, storeName: "b" });
    await b.save(["k"], "in b");
    assert.equal(await b.load(["k"]), "in b");
    assert.equal(await a.load(["k"]), "in a", "a reopens after b's upgrade closed it");
  });

  it("closes on versionchange so others can delete the database, then reopens", async () => {
    const indexedDB = new IDBFactory();
    const s = new IndexedDbStore({ indexedDB, IDBKeyRange });
    await s.save(["k"], "v");
    await new Promise((resolve, reject) => {
      const req = indexedDB.deleteDatabase("tool-stub");
      req.onsuccess = resolve;
      req.onerror = () => reject(req.error);
      req.onblocked = () => reject(new Error("blocked: the store did not close"));
    });
    assert.equal(await s.load(["k"]), undefined, "a fresh database after reopening");
  });

  it("reports a missing IndexedDB as NOT_READY", async () => {
    const s = new IndexedDbStore({ indexedDB: null, IDBKeyRange });
    await assert.rejects(s.load(["k"]), { code: "NOT_READY" });
  });

  it("wraps request errors as STORE_FAILED, keeping the DOMException name", async () => {
    const indexedDB = new IDBFactory();
    const s = new IndexedDbStore({ indexedDB, IDBKeyRange });
    await s.save(["warm"], "up");
    // Make the next put fail the way a full disk does: the request errors
    // with QuotaExceededError and the transaction aborts.
    const { IDBObjectStore } = await import("fake-indexeddb");
    const put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function () {
      this.transaction.abort();
      throw new DOMException("quota exceeded in test", "QuotaExceededError");
    };
    try {
      const err = await s.save(["k"], "v").catch((e) => e);
      assert.equal(err.code, "STORE_FAILED");
      assert.match(err.message, /QuotaExceededError/);
      assert.equal(err.cause.name, "QuotaExceededError");
    } finally {
      IDBObjectStore.prototype.put = put;
    }
    assert.equal(await s.load(["k"]), undefined, "nothing written");
    await s.save(["k"], "v");
    assert.equal(await s.load(["k"]), "v", "works again afterwards");
  });
});
