// The store conformance suite, shipped as `tool-stub/testing` so authors of other stores can run
// it (as automerge-repo ships its adapter tests): `runStoreConformance(setup)` runs every check,
// in any test framework or none. The checks are plain data, so the same list runs under node:test
// (tests/js/store-conformance.js) and in a real browser (tests/browser/store-conformance.html).
// Browser-safe: no Node imports.
//
// Each check gets `makeStore`, which must return a fresh, empty store
// (possibly async). Checks avoid keys that are both a value and a prefix of
// another key: the file-system layout cannot hold those.

import { assert, show } from "./conformance-assert.js";
import { sessionCases } from "./conformance-sessions.js";
import { caught } from "./stores/errors.js";
import { INDEX_FILE, METADATA_FILE, OUTPUT_FILE, RESULTS_DIR } from "./core-constants.js";

export { assert, sessionCases };

/** @typedef {import("./stores/store.js").Store} Store */
/** @typedef {import("./stores/store.js").StoreKey} StoreKey */
/** @typedef {import("./stores/store.js").StoreEntry} StoreEntry */
/** A fresh, empty store per call. @typedef {() => Store | Promise<Store>} MakeStore */
/** @typedef {{ name: string, run(makeStore: MakeStore): Promise<void> }} ConformanceCase */
/** @typedef {import("./conformance.js").ConformanceResult} ConformanceResult */

// ---- helpers -------------------------------------------------------------

/** @param {StoreEntry[]} list */
const entries = (list) => list.map(({ key, value }) => [key, value]);

/**
 * The store as a caller that breaks its contract sees it: the checks of invalid input call its
 * methods with what their types refuse.
 * @param {Store} store
 * @returns {{ [method: string]: (...args: unknown[]) => Promise<unknown> }}
 */
const untyped = (store) =>
  /** @type {{ [method: string]: (...args: unknown[]) => Promise<unknown> }} */ (
    /** @type {unknown} */ (store)
  );

/**
 * Whether the store has the optional method `method` (then the checks of it run).
 * @template {keyof Store} M
 * @param {Store} store
 * @param {M} method
 * @returns {store is Store & Required<Pick<Store, M>>}
 */
function has(store, method) {
  return typeof store[method] === "function";
}

/**
 * Checks that `size(key)` answers `expected` where the store has `size` (optional, as in Store).
 * @param {Store} store
 * @param {StoreKey} key
 * @param {number | undefined} expected
 * @param {string} msg
 */
async function checkSize(store, key, expected, msg) {
  if (typeof store.size === "function") assert.equal(await store.size(key), expected, msg);
}

/**
 * @param {Store} store
 * @param {StoreKey} key
 * @param {string} value
 */
async function roundTrip(store, key, value) {
  await store.save(key, value);
  assert.equal(await store.load(key), value, `load ${show(key)}`);
  await checkSize(store, key, value.length, `size ${show(key)}`);
}

// ---- ranged reads (optional: loadSlice with its sliceUnit) ---------------------------------------

const utf8 = new TextEncoder();

/**
 * `[start, end]` of code units `from..to` of a well-formed `value` in the store's slice unit.
 * @param {Store} store
 * @param {string} value
 * @param {number} from
 * @param {number} to
 * @returns {[number, number]}
 */
function sliceBounds(store, value, from, to) {
  if (store.sliceUnit === "utf16") return [from, to];
  return [utf8.encode(value.slice(0, from)).length, utf8.encode(value.slice(0, to)).length];
}

/**
 * A value of about `length` code units, astral characters included, with a marker every so often.
 * @param {number} length
 */
function longValue(length) {
  let value = "";
  for (let i = 0; value.length < length; i++)
    value += i % 500 === 0 ? `[${i}]` : i % 7 === 0 ? "😀" : "é";
  return value;
}

/**
 * `i`, moved off the middle of a surrogate pair: byte positions exist only between characters.
 * @param {string} value
 * @param {number} i
 */
function boundary(value, i) {
  const splitsPair =
    /[\uD800-\uDBFF]/.test(value[i - 1] ?? "") && /[\uDC00-\uDFFF]/.test(value[i] ?? "");
  return splitsPair ? i + 1 : i;
}

/**
 * @param {Store} store a store with loadSlice
 * @param {StoreKey} key
 * @param {string} value
 * @param {[number, number][]} bounds
 */
async function checkSlices(store, key, value, bounds) {
  for (const [from, to] of bounds.map(([a, b]) => [boundary(value, a), boundary(value, b)])) {
    const [start, end] = sliceBounds(store, value, from, to);
    assert.equal(
      await untyped(store).loadSlice(key, start, end),
      value.slice(from, to),
      `slice ${from}..${to} of ${show(value)}`,
    );
  }
}

// ---- the checks ------------------------------------------------------------

/** @type {ConformanceCase[]} */
export const cases = [
  {
    name: "missing key loads as undefined",
    async run(makeStore) {
      const s = await makeStore();
      assert.equal(await s.load(["nope"]), undefined);
      assert.equal(await s.load(["no", "such", "path"]), undefined);
      await checkSize(s, ["nope"], undefined, "size of a missing key");
      assert.deepEqual(await s.loadRange(["nope"]), []);
      assert.deepEqual(await s.loadRange([]), [], "fresh store is empty");
    },
  },
  {
    name: "save then load",
    async run(makeStore) {
      const s = await makeStore();
      await roundTrip(s, ["s1", RESULTS_DIR, "tr_x", OUTPUT_FILE], "hello world");
      await roundTrip(s, ["single"], "v");
    },
  },
  {
    name: "empty string and awkward content round-trip",
    async run(makeStore) {
      const s = await makeStore();
      await roundTrip(s, ["empty"], ""); // "" is a value, not a missing key
      await roundTrip(s, ["bom"], "\uFEFFstarts with a BOM");
      await roundTrip(s, ["nul"], "a\0b\r\n\tc");
    },
  },
  {
    name: "overwrite replaces the value",
    async run(makeStore) {
      const s = await makeStore();
      await s.save(["k"], "first, longer value");
      await s.save(["k"], "second");
      assert.equal(await s.load(["k"]), "second");
      await checkSize(s, ["k"], 6, "size after overwrite");
      assert.equal((await s.loadRange([])).length, 1, "still one entry");
    },
  },
  {
    name: "prefixes are whole segments",
    async run(makeStore) {
      const s = await makeStore();
      await s.save(["a", "b"], "1");
      await s.save(["a", "bc"], "2");
      await s.save(["ab"], "3");
      assert.deepEqual(entries(await s.loadRange(["a", "b"])), [[["a", "b"], "1"]]);
      assert.deepEqual(entries(await s.loadRange(["a"])), [
        [["a", "b"], "1"],
        [["a", "bc"], "2"],
      ]);
      assert.deepEqual(entries(await s.loadRange(["ab"])), [[["ab"], "3"]]);
      assert.deepEqual(await s.loadRange(["a", "b", "c"]), [], "prefix longer than the key");
      await s.removeRange(["a", "b"]);
      assert.deepEqual(entries(await s.loadRange([])), [
        [["a", "bc"], "2"],
        [["ab"], "3"],
      ]);
    },
  },
  {
    name: "loadRange returns only the prefix, sorted segment-wise by code unit",
    async run(makeStore) {
      const s = await makeStore();
      // Inserted out of order. "😀" (U+1F600, UTF-16 D83D DE00) sorts before
      // "Ａ" (U+FF21) in code unit order, though after it in UTF-8 byte order.
      // "\uFFFF\uFFFF" is the largest segment here: it catches range bounds
      // that use a "high" string instead of something above all strings.
      const keys = [
        ["p", "b", "1"],
        ["q", "a"],
        ["p", "Ａ", "x"],
        ["p", "\uFFFF\uFFFF", "x"],
        ["p", "a", "2"],
        ["o", "z"],
        ["p", "😀", "x"],
        ["p", "a", "10"],
        ["p", "B", "x"],
        ["p", "é", "x"],
        ["pp", "a"],
      ];
      for (const k of keys) await s.save(k, k.join("|"));
      const expected = [
        ["p", "B", "x"],
        ["p", "a", "10"],
        ["p", "a", "2"],
        ["p", "b", "1"],
        ["p", "é", "x"],
        ["p", "😀", "x"],
        ["p", "Ａ", "x"],
        ["p", "\uFFFF\uFFFF", "x"],
      ];
      assert.deepEqual(
        entries(await s.loadRange(["p"])),
        expected.map((k) => [k, k.join("|")]),
      );
      assert.deepEqual(entries(await s.loadRange(["p", "a"])), [
        [["p", "a", "10"], "p|a|10"],
        [["p", "a", "2"], "p|a|2"],
      ]);
      assert.deepEqual(
        entries(await s.loadRange(["q", "a"])),
        [[["q", "a"], "q|a"]],
        "a key is in its own range",
      );
      const all = (await s.loadRange([])).map((e) => e.key);
      assert.deepEqual(
        all,
        [["o", "z"], ...expected, ["pp", "a"], ["q", "a"]],
        "empty prefix = everything",
      );
    },
  },
  {
    name: "returned keys are copies",
    async run(makeStore) {
      const s = await makeStore();
      const key = ["x", "y"];
      await s.save(key, "v");
      key[1] = "changed"; // mutating the caller's array after save changes nothing
      const [entry] = await s.loadRange(["x"]);
      assert.deepEqual(entry.key, ["x", "y"]);
      entry.key[0] = "zzz";
      assert.deepEqual((await s.loadRange([]))[0].key, ["x", "y"]);
    },
  },
  {
    name: "a 5 MB value round-trips",
    async run(makeStore) {
      const s = await makeStore();
      const chunk = "0123456789abcdef-é日😀\n";
      const big = chunk.repeat(Math.ceil((5 * 1024 * 1024) / chunk.length));
      await s.save(["big", "value"], big);
      const back = await s.load(["big", "value"]);
      assert.ok(
        back === big,
        `5 MB value differs (got length ${back?.length}, want ${big.length})`,
      );
      await checkSize(s, ["big", "value"], big.length, "size of a big value");
    },
  },
  {
    name: "remove deletes one key; removing a missing key is fine",
    async run(makeStore) {
      const s = await makeStore();
      await s.save(["r", "a"], "1");
      await s.save(["r", "b"], "2");
      await s.remove(["r", "a"]);
      assert.equal(await s.load(["r", "a"]), undefined);
      assert.equal(await s.load(["r", "b"]), "2");
      await s.remove(["r", "a"]);
      await s.remove(["never", "was", "here"]);
      await s.remove(["r"]); // a prefix, not a key: removes nothing
      assert.deepEqual(entries(await s.loadRange([])), [[["r", "b"], "2"]]);
    },
  },
  {
    name: "removeRange deletes exactly the prefix",
    async run(makeStore) {
      const s = await makeStore();
      for (const k of [["s1", "a", "x"], ["s1", "a", "y"], ["s1", "b"], ["s2", "a", "x"], ["s10"]])
        await s.save(k, "v");
      await s.removeRange(["s1", "a"]);
      assert.deepEqual(
        (await s.loadRange([])).map((e) => e.key),
        [["s1", "b"], ["s10"], ["s2", "a", "x"]],
      );
      await s.removeRange(["s1"]);
      assert.deepEqual(
        (await s.loadRange([])).map((e) => e.key),
        [["s10"], ["s2", "a", "x"]],
      );
      await s.removeRange(["missing", "prefix"]);
      await s.removeRange(["s10"]); // a full key is its own range
      assert.deepEqual(
        (await s.loadRange([])).map((e) => e.key),
        [["s2", "a", "x"]],
      );
      await s.removeRange([]);
      assert.deepEqual(await s.loadRange([]), [], "empty prefix clears the store");
      await s.save(["after"], "ok"); // the store still works afterwards
      assert.equal(await s.load(["after"]), "ok");
    },
  },
  {
    name: "non-ASCII and astral text round-trips exactly",
    async run(makeStore) {
      const s = await makeStore();
      const values = ["héllo", "日本語", "😀𝄞", "mixed é 日 😀 \u0000 \uFFFF end"];
      for (const [i, v] of values.entries()) await roundTrip(s, ["t", String(i)], v);
      await roundTrip(s, ["日本語", "😀"], "non-ASCII key segments work too");
    },
  },
  {
    name: "lone surrogates round-trip exactly",
    async run(makeStore) {
      const s = await makeStore();
      const values = [
        "\uD800x\uDC00",
        "\uDBFF",
        "a\uDFFF",
        "\uDC00\uD800",
        "x\uD83D",
        "\uDE00y",
        "ok😀\uD800😀",
      ];
      for (const [i, v] of values.entries()) await roundTrip(s, ["lone", String(i)], v);
      const all = await s.loadRange(["lone"]);
      assert.deepEqual(
        all.map((e) => e.value),
        values,
        "via loadRange too",
      );
    },
  },
  {
    name: "50 concurrent saves to distinct keys all land",
    async run(makeStore) {
      const s = await makeStore();
      const n = 50;
      await Promise.all(
        Array.from({ length: n }, (_, i) =>
          s.save(["c", String(i).padStart(2, "0")], `value ${i}`),
        ),
      );
      const got = await s.loadRange(["c"]);
      assert.equal(got.length, n);
      for (const [i, e] of got.entries()) assert.equal(e.value, `value ${i}`);
    },
  },
  {
    name: "concurrent saves to one key leave one whole value",
    async run(makeStore) {
      const s = await makeStore();
      const values = Array.from({ length: 10 }, (_, i) =>
        String.fromCharCode(65 + i).repeat(200_000 + i),
      );
      await Promise.all(values.map((v) => s.save(["same"], v)));
      const got = await s.load(["same"]);
      assert.ok(
        /** @type {(string | undefined)[]} */ (values).includes(got),
        `value is a mix or missing (length ${got?.length})`,
      );
      assert.deepEqual(
        (await s.loadRange([])).map((e) => e.key),
        [["same"]],
        "no stray entries",
      );
    },
  },
  {
    name: "invalid keys are rejected with INVALID_ARGUMENT and write nothing",
    async run(makeStore) {
      const s = await makeStore();
      const badKeys = [
        [],
        [""],
        ["."],
        [".."],
        ["a/b"],
        ["a\\b"],
        ["a\0b"],
        ["ok", ".."],
        ["ok", ""],
        ["..", "x"],
        ["\uD800"],
        [1],
        [null],
        "a",
        undefined,
        null,
      ];
      const loose = untyped(s);
      for (const k of badKeys) {
        const label = show(k);
        await assert.rejectsWithCode(() => loose.save(k, "x"), "INVALID_ARGUMENT", `save ${label}`);
        await assert.rejectsWithCode(() => loose.load(k), "INVALID_ARGUMENT", `load ${label}`);
        await assert.rejectsWithCode(() => loose.remove(k), "INVALID_ARGUMENT", `remove ${label}`);
        if (typeof s.size === "function")
          await assert.rejectsWithCode(() => loose.size(k), "INVALID_ARGUMENT", `size ${label}`);
        if (Array.isArray(k) && k.length === 0) continue; // [] is a valid prefix
        await assert.rejectsWithCode(
          () => loose.loadRange(k),
          "INVALID_ARGUMENT",
          `loadRange ${label}`,
        );
        await assert.rejectsWithCode(
          () => loose.removeRange(k),
          "INVALID_ARGUMENT",
          `removeRange ${label}`,
        );
      }
      const err = await assert.rejectsWithCode(
        () => s.save(["fine", "a/b"], "x"),
        "INVALID_ARGUMENT",
      );
      assert.ok(
        String(caught(err)?.message).includes('"a/b"'),
        `message names the bad segment: ${caught(err)?.message}`,
      );
      await assert.rejectsWithCode(
        () => loose.save(["k"], 42),
        "INVALID_ARGUMENT",
        "non-string value",
      );
      await assert.rejectsWithCode(
        () => loose.save(["k"], undefined),
        "INVALID_ARGUMENT",
        "undefined value",
      );
      assert.deepEqual(await s.loadRange([]), [], "nothing was written");
    },
  },
  {
    name: "size() equals value.length in UTF-16 code units (optional)",
    async run(makeStore) {
      const s = await makeStore();
      if (!has(s, "size")) return;
      for (const v of ["", "abc", "é", "日本", "😀", "\uD800", "a😀b\uDC00"]) {
        await s.save(["sz"], v);
        assert.equal(await s.size(["sz"]), v.length, `size of ${show(v)}`);
      }
    },
  },
  {
    name: "loadSlice reads a span of the value (units: sliceUnit)",
    async run(makeStore) {
      const s = await makeStore();
      if (!has(s, "loadSlice")) return;
      assert.ok(s.sliceUnit === "utf16" || s.sliceUnit === "utf8", `sliceUnit ${s.sliceUnit}`);
      const value = "aé日😀b\n😀😀end";
      await s.save(["sl", "v"], value);
      await checkSlices(s, ["sl", "v"], value, [
        [0, 0],
        [0, value.length],
        [1, 3],
        [3, 5],
        [5, 9],
        [value.length, value.length],
      ]);
      const [start] = sliceBounds(s, value, 5, 5);
      assert.equal(
        await s.loadSlice(["sl", "v"], start, start + 10_000),
        value.slice(5),
        "end past the value is clamped",
      );
      assert.equal(await s.loadSlice(["sl", "nope"], 0, 1), undefined, "missing key");
      for (const [a, b] of [
        [-1, 2],
        [3, 1],
        [0.5, 2],
        [0, Infinity],
        ["0", 1],
      ]) {
        await assert.rejectsWithCode(
          () => untyped(s).loadSlice(["sl", "v"], a, b),
          "INVALID_ARGUMENT",
          `bounds ${a}, ${b}`,
        );
      }
      await assert.rejectsWithCode(
        () => s.loadSlice(["sl", ".."], 0, 1),
        "INVALID_ARGUMENT",
        "bad key",
      );
    },
  },
  {
    name: "a long value is whole for load, loadRange and size, and sliced anywhere",
    async run(makeStore) {
      const s = await makeStore();
      // Longer than IndexedDbStore's pieces (1M code units by default), with one short neighbour.
      const value = longValue(2_500_000);
      await s.save(["big", "a"], value);
      await s.save(["big", "b"], "short");
      assert.equal(await s.load(["big", "a"]), value);
      await checkSize(s, ["big", "a"], value.length, "size of a value in pieces");
      const all = await s.loadRange(["big"]);
      assert.deepEqual(
        all.map((e) => e.key),
        [
          ["big", "a"],
          ["big", "b"],
        ],
        "pieces are not entries",
      );
      assert.ok(all[0].value === value && all[1].value === "short", "loadRange values");
      if (has(s, "loadSlice")) {
        const m = 1 << 20;
        await checkSlices(s, ["big", "a"], value, [
          [0, 10],
          [m - 4, m + 4],
          [2 * m - 2, 2 * m + 3000],
          [value.length - 2000, value.length],
          [10, 2 * m + 10],
        ]);
      }
      await s.save(["big", "a"], "now short");
      assert.equal(await s.load(["big", "a"]), "now short", "a short value replaces a long one");
      await s.save(["big", "a"], value);
      await s.remove(["big", "a"]);
      assert.equal(await s.load(["big", "a"]), undefined, "removed");
      await s.save(["big", "c"], value);
      await s.removeRange(["big"]);
      assert.deepEqual(await s.loadRange([]), [], "nothing left, pieces included");
      await s.save(["big", "c"], "again");
      assert.equal(await s.load(["big", "c"]), "again");
    },
  },
  {
    name: "loadPieces gives the value's pieces, whose join is load's value (optional)",
    async run(makeStore) {
      const s = await makeStore();
      if (!has(s, "loadPieces")) return;
      /** @param {StoreKey} key */
      const joined = async (key) => {
        const pieces = await s.loadPieces(key);
        assert.ok(
          Array.isArray(pieces) && pieces.every((p) => typeof p === "string"),
          `loadPieces ${show(key)} gives strings`,
        );
        return /** @type {string[]} checked just above */ (pieces).join("");
      };
      // Longer than IndexedDbStore's pieces (1M code units by default), with a surrogate pair
      // across its first piece boundary, and short values beside it.
      const m = 1 << 20;
      const big = `${"a".repeat(m - 1)}😀${longValue(1_500_000)}`;
      /** @type {[StoreKey, string][]} */
      const values = [
        [["pc", "empty"], ""],
        [["pc", "short"], "a😀\uD800é"],
        [["pc", "big"], big],
      ];
      for (const [key, value] of values) await s.save(key, value);
      for (const [key, value] of values) {
        assert.equal(await joined(key), value, `pieces of ${show(key)}`);
        assert.equal(await joined(key), await s.load(key), `pieces of ${show(key)} against load`);
      }
      assert.equal(await s.loadPieces(["pc", "nope"]), undefined, "missing key");
      await s.save(["pc", "big"], "now short");
      assert.equal(await joined(["pc", "big"]), "now short", "a short value replaces a long one");
      await s.remove(["pc", "short"]);
      assert.equal(await s.loadPieces(["pc", "short"]), undefined, "removed");
      await assert.rejectsWithCode(() => s.loadPieces(["pc", ".."]), "INVALID_ARGUMENT", "bad key");
    },
  },
  {
    name: "loadKeys lists the keys loadRange would, without values (optional)",
    async run(makeStore) {
      const s = await makeStore();
      if (!has(s, "loadKeys")) return;
      const keys = [["k", "b", "2"], ["k", "a"], ["k", "b", "10"], ["k", "😀"], ["kk", "x"], ["j"]];
      for (const k of keys) await s.save(k, "v".repeat(1000));
      await s.save(["k", "big"], longValue(1_200_000));
      for (const prefix of [
        ["k"],
        ["k", "b"],
        [],
        ["k", "a"],
        ["nope"],
        ["k", "b", "2", "deeper"],
      ]) {
        const expected = (await s.loadRange(prefix)).map((e) => e.key);
        assert.deepEqual(await s.loadKeys(prefix), expected, `loadKeys ${show(prefix)}`);
      }
      const listed = await s.loadKeys(["k"]);
      listed[0][0] = "changed"; // callers may mutate what they get
      assert.deepEqual((await s.loadKeys(["k"]))[0][0], "k", "returned keys are copies");
      await s.removeRange(["k"]);
      assert.deepEqual(await s.loadKeys(["k"]), [], "pieces of a long value are not keys");
      await assert.rejectsWithCode(() => s.loadKeys(["a/b"]), "INVALID_ARGUMENT", "bad prefix");
    },
  },
  {
    name: "saveMany saves every entry, or none when one is invalid (optional)",
    async run(makeStore) {
      const s = await makeStore();
      if (!has(s, "saveMany")) return;
      const big = longValue(1_200_000);
      const entries = [
        { key: ["m", RESULTS_DIR, "r1", OUTPUT_FILE], value: big },
        { key: ["m", RESULTS_DIR, "r1", INDEX_FILE], value: "lone \uD800 surrogate" },
        { key: ["m", RESULTS_DIR, "r1", METADATA_FILE], value: "{}" },
      ];
      await s.saveMany(entries);
      for (const { key, value } of entries) {
        assert.ok((await s.load(key)) === value, `load ${show(key)} after saveMany`);
        await checkSize(s, key, value.length, `size ${show(key)} after saveMany`);
      }
      assert.deepEqual(
        (await s.loadRange(["m"])).map((e) => e.key),
        [entries[1].key, entries[2].key, entries[0].key],
        "loadRange after saveMany",
      );
      await s.saveMany([
        { key: entries[2].key, value: "replaced" },
        { key: ["m", "other"], value: "" },
      ]);
      assert.equal(await s.load(entries[2].key), "replaced", "saveMany replaces a value");
      assert.equal(await s.load(["m", "other"]), "", "an empty value is a value");
      await s.saveMany([]);
      for (const bad of [
        [
          { key: ["n", "a"], value: "1" },
          { key: ["n", ".."], value: "2" },
        ],
        [
          { key: ["n", "a"], value: "1" },
          { key: ["n", "b"], value: 2 },
        ],
        [null],
        "not an array",
      ]) {
        await assert.rejectsWithCode(
          () => untyped(s).saveMany(bad),
          "INVALID_ARGUMENT",
          `saveMany ${show(bad)}`,
        );
      }
      assert.deepEqual(await s.loadRange(["n"]), [], "a refused saveMany writes nothing");
    },
  },
  {
    name: "lock is exclusive, served in order, and releasing twice is harmless (optional)",
    async run(makeStore) {
      const s = await makeStore();
      if (!has(s, "lock")) return;
      const key = ["s", "tool-stub", "lock"];
      /** @type {string[]} */
      const order = [];
      const first = await s.lock(key);
      assert.equal(first.recovered, false, "a fresh lock was not left by anyone");
      const second = s.lock(key).then(async (lease) => {
        order.push("second");
        await lease.release();
      });
      const other = await s.lock(["s", "other-lock"]);
      order.push("other"); // another key is not held up
      await other.release();
      await new Promise((resolve) => setTimeout(resolve, 30));
      order.push("first releases");
      await first.release();
      await first.release();
      await second;
      assert.deepEqual(order, ["other", "first releases", "second"]);
      const again = await s.lock(key);
      assert.equal(again.recovered, false, "released locks are not reported as crashed");
      await again.release();
      assert.deepEqual(
        (await s.loadRange([])).map((e) => e.key).filter((k) => k[1] !== "tool-stub"),
        [],
        "a lock stores no value of its own elsewhere",
      );
      await assert.rejectsWithCode(() => s.lock(["..", "x"]), "INVALID_ARGUMENT", "bad key");
    },
  },
];

/**
 * Runs every check against stores made by `setup()` (a fresh, empty store per call; may be
 * async). Answers `{ passed, failed, results: [{ name, ok, error?, ms }] }`; never throws for a
 * failing check. `onResult(result)` is called after each one. Given the `ToolStub` class of the
 * build under test, the checks of sessions sharing the store (read grants) run too.
 */
/**
 * @param {MakeStore} setup
 * @param {{ onResult?: (result: ConformanceResult) => void, ToolStub?: typeof import("./index.js").ToolStub }} [options]
 */
export async function runStoreConformance(setup, { onResult, ToolStub } = {}) {
  if (typeof setup !== "function")
    throw new TypeError(
      "runStoreConformance(setup): setup must be a function returning a fresh store",
    );
  /** @type {ConformanceResult[]} */
  const results = [];
  /** @type {{ name: string, run(makeStore: MakeStore, toolStub?: typeof import("./index.js").ToolStub): Promise<void> }[]} */
  const checks = ToolStub === undefined ? cases : [...cases, ...sessionCases];
  for (const c of checks) {
    const started = Date.now();
    /** @type {ConformanceResult} */
    const result = { name: c.name, ok: true, ms: 0 };

    try {
      await c.run(setup, ToolStub);
    } catch (error) {
      result.ok = false;
      result.error = `${caught(error)?.name ?? "Error"}: ${caught(error)?.message ?? String(error)}`;
    }
    result.ms = Date.now() - started;
    results.push(result);
    onResult?.(result);
  }
  const failed = results.filter((r) => !r.ok).length;
  return { passed: results.length - failed, failed, results };
}
