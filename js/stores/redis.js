// Redis store (Node): a store over an ioredis client (`Redis` or `Cluster`) that the caller makes,
// so many instances of an agent share one session. This module never imports ioredis: it only
// calls the client it is given.
//
// Layout, per session (a key's first segment; see "Redis" in the README). Every Redis key of a
// session carries the hash tag `{<prefix>:<session>}`, so they all live in one cluster slot and
// MULTI/EXEC and scripts work on a Redis Cluster:
//   {P:S}/<member>  a value (a string: the value's UTF-8, WTF-8 for lone surrogates)
//   {P:S}#keys      sorted set of the session's members, all with score 0: ZRANGEBYLEX lists a
//                   prefix's keys in key order, without KEYS or SCAN
//   {P:S}#len       hash: member -> the value's length in UTF-16 units (`size` without a load)
//   {P:S}#exp       sorted set: member -> when its value expires (ms), for values saved with a TTL
//   {P:S}#lock/<member>, {P:S}#held/<member>  a lock and its "held" marker (see lock())
// and one key for the store: {P}:sessions, the sessions that hold keys (for an empty prefix).
//
// A member is the key's segments after the session, each in CESU-8 (UTF-8 with each UTF-16 unit
// encoded on its own, so byte order is UTF-16 code unit order) followed by a NUL, which no
// segment holds and which sorts below every byte: byte order of members is the contract's
// segment-wise key order, and a prefix's keys are one lexicographic range.

import { ToolStubError, caught } from "./errors.js";
import { validateKey, validatePrefix, validateSliceBounds, validateValue } from "./keys.js";
import { decode, encode, isWellFormed } from "./wtf8.js";
import { acquireLocal } from "./lock.js";
import { randomBytes, createHash } from "node:crypto";

// How long a lock lives without being renewed: a holder that died (SIGKILL) frees it after this.
const DEFAULT_LOCK_LEASE_MS = 15_000;
// How long lock() waits for a live holder before it fails.
const DEFAULT_LOCK_WAIT_MS = 120_000;
// A store call that takes longer fails with STORE_FAILED (ioredis may queue commands while it
// reconnects, or retry through a cluster failover).
const DEFAULT_TIMEOUT_MS = 30_000;
// Values whose expiry is this close (or past) are checked when keys are listed: clocks of the
// clients (which write the expiry times) and of the server may differ by this much.
const EXPIRY_SKEW_MS = 60_000;
// Values fetched per MGET in loadRange.
const MGET_BATCH = 128;

/** @typedef {import("ioredis").Redis | import("ioredis").Cluster} RedisClient */
/** @typedef {import("ioredis").ChainableCommander} Multi */
/** @typedef {import("./store.js").StoreKey} StoreKey */
/** @typedef {import("./store.js").StoreEntry} StoreEntry */
/**
 * The Redis keys of one session.
 * @typedef {object} SessionKeys
 * @property {string} session
 * @property {Buffer} base
 * @property {Buffer} keys
 * @property {Buffer} len
 * @property {Buffer} exp
 * @property {(member: Buffer) => Buffer} lock
 * @property {(member: Buffer) => Buffer} held
 */

const NUL = Buffer.of(0);
const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * CESU-8 of a well-formed string: each UTF-16 unit on its own (byte order = code unit order).
 * @param {string} text
 */
function cesu8(text) {
  if (!SURROGATE.test(text)) return Buffer.from(text, "utf8");
  /** @type {number[]} */
  const out = [];
  for (let i = 0; i < text.length; i++) {
    const u = text.charCodeAt(i);
    if (u < 0x80) out.push(u);
    else if (u < 0x800) out.push(0xc0 | (u >> 6), 0x80 | (u & 0x3f));
    else out.push(0xe0 | (u >> 12), 0x80 | ((u >> 6) & 0x3f), 0x80 | (u & 0x3f));
  }
  return Buffer.from(out);
}

/**
 * The WTF-8 bytes of a string holding lone surrogates, as a Buffer (no copy).
 * @param {string} text
 */
function wtf8Buffer(text) {
  const bytes = encode(text);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * The member of a key's segments after the session.
 * @param {readonly string[]} rest
 */
function memberOf(rest) {
  /** @type {Buffer[]} */
  const parts = [];
  for (const segment of rest) parts.push(cesu8(segment), NUL);
  return Buffer.concat(parts);
}

/**
 * The segments of a member (wtf8's decoder joins separately encoded surrogates into pairs).
 * @param {Buffer} member
 * @returns {string[]}
 */
function segmentsOf(member) {
  // Without 0xED (the lead byte of an encoded surrogate) CESU-8 is UTF-8: one decode, one split.
  if (!member.includes(0xed)) {
    const segments = member.toString("utf8").split("\0");
    segments.pop(); // after the last NUL
    return segments;
  }
  /** @type {string[]} */
  const segments = [];
  let start = 0;
  for (let i = member.indexOf(0); i !== -1; i = member.indexOf(0, start)) {
    segments.push(decode(member.subarray(start, i)));
    start = i + 1;
  }
  return segments;
}

/**
 * ZRANGEBYLEX bounds of the members under `rest` (a member is in its own range).
 * @param {readonly string[]} rest
 * @returns {[Buffer, Buffer]}
 */
function rangeOf(rest) {
  if (rest.length === 0) return [Buffer.from("-"), Buffer.from("+")];
  const member = memberOf(rest);
  const end = Buffer.from(member);
  end[end.length - 1] = 1; // the byte after the final NUL
  return [Buffer.concat([Buffer.from("["), member]), Buffer.concat([Buffer.from("("), end])];
}

// Lua, run where the session's keys live. KEYS[1..3] = #keys, #len, #exp; ARGV[base] = "{P:S}/".
// Values whose expiry is near are checked and, when Redis has expired them, dropped from the
// session's sorted sets, so a listing never names a value that is gone.
const REAP = `
local function reap(base)
  if redis.call('EXISTS', KEYS[3]) == 0 then return end
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  for _, m in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now + ${EXPIRY_SKEW_MS})) do
    if redis.call('EXISTS', base .. m) == 0 then
      redis.call('ZREM', KEYS[1], m)
      redis.call('HDEL', KEYS[2], m)
      redis.call('ZREM', KEYS[3], m)
    end
  end
end
`;

const SCRIPTS = {
  // ARGV: min, max, base. The members of a range, after reaping expired values.
  list: `${REAP}
reap(ARGV[3])
return redis.call('ZRANGEBYLEX', KEYS[1], ARGV[1], ARGV[2])`,
  // ARGV: min, max, base. Removes the values of a range and their members; answers how many.
  removeRange: `
local ms = redis.call('ZRANGEBYLEX', KEYS[1], ARGV[1], ARGV[2])
for _, m in ipairs(ms) do
  redis.call('UNLINK', ARGV[3] .. m)
  redis.call('HDEL', KEYS[2], m)
  redis.call('ZREM', KEYS[3], m)
end
redis.call('ZREMRANGEBYLEX', KEYS[1], ARGV[1], ARGV[2])
return #ms`,
  // Run inside a save's MULTI when values get a TTL. ARGV: ttl ms. The session's sorted sets and
  // hash live as long as their longest-lived value when every value has a TTL; forever otherwise.
  expireIndex: `
local ttl = tonumber(ARGV[1])
if redis.call('ZCARD', KEYS[3]) >= redis.call('ZCARD', KEYS[1]) then
  local last = redis.call('ZRANGE', KEYS[3], -1, -1, 'WITHSCORES')
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  if last[2] then ttl = math.max(ttl, tonumber(last[2]) - now) end
  ttl = ttl + ${EXPIRY_SKEW_MS}
  for i = 1, 3 do
    local left = redis.call('PTTL', KEYS[i])
    if left == -1 or (left >= 0 and left < ttl) then redis.call('PEXPIRE', KEYS[i], ttl) end
  end
else
  for i = 1, 3 do redis.call('PERSIST', KEYS[i]) end
end
return 1`,
  // Run inside a save's MULTI when values get no TTL. ARGV: the members saved. Once the session
  // has values with a TTL, these members no longer expire, and neither may the session's index.
  persistIndex: `
if redis.call('EXISTS', KEYS[3]) == 0 then return 0 end
redis.call('ZREM', KEYS[3], unpack(ARGV))
for i = 1, 3 do redis.call('PERSIST', KEYS[i]) end
return 1`,
  // KEYS: lock, held marker. ARGV: token, lease ms, marker ttl ms (0: none).
  // Answers -1 (held by another), 0 (taken), 1 (taken; the last holder died holding it).
  lock: `
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return -1 end
local previous = redis.call('GET', KEYS[2])
if tonumber(ARGV[3]) > 0 then
  redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[3])
else
  redis.call('SET', KEYS[2], ARGV[1])
end
if previous then return 1 end
return 0`,
  // KEYS: lock. ARGV: token, lease ms. Renews our own lock only.
  renew: `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`,
  // KEYS: lock, held marker. ARGV: token. Releases our own lock only (compare and delete).
  unlock: `
if redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[2]) end
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`,
};
/** @typedef {keyof typeof SCRIPTS} ScriptName */
/** @type {Record<ScriptName, string>} */
const SHAS = /** @type {Record<ScriptName, string>} */ (
  Object.fromEntries(
    Object.entries(SCRIPTS).map(([name, text]) => [
      name,
      createHash("sha1").update(text).digest("hex"),
    ]),
  )
);

/**
 * `text` with the characters that would end or split a hash tag (and the escape) escaped.
 * @param {string} text
 * @param {string} [extra]
 */
function escapeTag(text, extra = "") {
  const special = new RegExp(`[%{}${extra}]`, "g");
  return text.replace(
    special,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`,
  );
}

/** @param {readonly string[]} key */
function keyText(key) {
  return JSON.stringify(key.join("/").slice(0, 300));
}

/** @param {unknown} err */
function describeError(err) {
  const fields = caught(err);
  const message = String(fields?.message ?? err)
    .split("\n")[0]
    .slice(0, 300);
  const name = fields?.name;
  return `${name && name !== "Error" && name !== "ReplyError" ? `${String(name)}: ` : ""}${message}`;
}

/**
 * A STORE_FAILED naming the call, the key and what Redis (or the client) said.
 * @param {string} what
 * @param {readonly string[] | undefined} key
 * @param {unknown} err
 */
function failed(what, key, err) {
  if (err instanceof ToolStubError) return err;
  const where = key === undefined ? "" : ` ${keyText(key)}`;
  return new ToolStubError(
    "STORE_FAILED",
    `RedisStore: cannot ${what}${where}: ${describeError(err)}`,
    { cause: err },
  );
}

export class RedisStore {
  /** @type {RedisClient} */
  #client;
  /** @type {string} */
  #prefix;
  /** @type {number | undefined} */
  #ttlMs;
  /** @type {number} */
  #timeoutMs;
  /** @type {number} */
  #lockLeaseMs;
  /** @type {number} */
  #lockWaitMs;
  /**
   * Session index writes in flight, by session (see #indexSession).
   * @type {Map<string, Promise<unknown>>}
   */
  #indexing = new Map();
  /**
   * The locks this store holds or waits for, by Redis key: its own callers queue here, in order,
   * instead of polling Redis. Every other RedisStore on the same Redis and keyPrefix (sharing the
   * client or not, in this process or another) meets them at the lock in Redis.
   * @type {Map<string, Promise<unknown>>}
   */
  #locks = new Map();

  /**
   * @param {object} options
   * @param {RedisClient} options.client an ioredis `Redis` or `Cluster` (the caller creates and closes it)
   * @param {string} [options.keyPrefix] default "tool-stub": every Redis key starts `{<keyPrefix>:`
   * @param {number} [options.ttlSeconds] values expire this long after they are saved (Redis expiry)
   * @param {number} [options.timeoutMs] a call that takes longer fails (default 30,000)
   * @param {number} [options.lockLeaseMs] a lock not renewed this long is free again (default 15,000)
   * @param {number} [options.lockWaitMs] how long lock() waits for its holder (default 120,000)
   */
  constructor(options) {
    if (options === null || typeof options !== "object") {
      throw new ToolStubError(
        "INVALID_ARGUMENT",
        "RedisStore needs options: { client, keyPrefix? }",
      );
    }
    const { client, keyPrefix = "tool-stub", ttlSeconds, timeoutMs = DEFAULT_TIMEOUT_MS } = options;
    const { lockLeaseMs = DEFAULT_LOCK_LEASE_MS, lockWaitMs = DEFAULT_LOCK_WAIT_MS } = options;
    const known = ["client", "keyPrefix", "ttlSeconds", "timeoutMs", "lockLeaseMs", "lockWaitMs"];
    for (const name of Object.keys(options)) {
      if (!known.includes(name))
        throw new ToolStubError(
          "INVALID_ARGUMENT",
          `RedisStore: unknown option ${JSON.stringify(name)} (known: ${known.join(", ")})`,
        );
    }
    if (
      client === null ||
      typeof client !== "object" ||
      typeof client.multi !== "function" ||
      typeof client.callBuffer !== "function"
    ) {
      throw new ToolStubError(
        "INVALID_ARGUMENT",
        "RedisStore: options.client must be an ioredis Redis or Cluster client",
      );
    }
    // ioredis's own keyPrefix would prefix the keys a script is given but not the ones it builds.
    // A `Redis` has `options.keyPrefix`, a `Cluster` `options.redisOptions.keyPrefix`.
    const clientOptions =
      /** @type {{ keyPrefix?: string, redisOptions?: { keyPrefix?: string } } | undefined} */ (
        client.options
      );
    if (clientOptions?.keyPrefix || clientOptions?.redisOptions?.keyPrefix) {
      throw new ToolStubError(
        "INVALID_ARGUMENT",
        "RedisStore: the ioredis client has a keyPrefix option: leave it unset and pass keyPrefix to RedisStore instead",
      );
    }
    if (typeof keyPrefix !== "string" || keyPrefix === "" || !isWellFormed(keyPrefix)) {
      throw new ToolStubError(
        "INVALID_ARGUMENT",
        "RedisStore: keyPrefix must be a non-empty string",
      );
    }
    /**
     * @param {number | undefined} value
     * @param {string} name
     * @param {boolean} [allowUndefined]
     */
    const positive = (value, name, allowUndefined) => {
      if (allowUndefined && value === undefined) return;
      if (typeof value !== "number" || !Number.isFinite(value) || value <= 0)
        throw new ToolStubError(
          "INVALID_ARGUMENT",
          `RedisStore: ${name} must be a positive number (got ${String(value)})`,
        );
    };
    positive(ttlSeconds, "ttlSeconds", true);
    positive(timeoutMs, "timeoutMs");
    positive(lockLeaseMs, "lockLeaseMs");
    positive(lockWaitMs, "lockWaitMs");
    this.#client = client;
    // ":" is escaped in the prefix so that "{a:b:c}" cannot be prefix "a" or prefix "a:b".
    this.#prefix = escapeTag(keyPrefix, ":");
    this.#ttlMs = ttlSeconds === undefined ? undefined : Math.max(1, Math.round(ttlSeconds * 1000));
    this.#timeoutMs = timeoutMs;
    this.#lockLeaseMs = Math.max(1, Math.round(lockLeaseMs));
    this.#lockWaitMs = lockWaitMs;
  }

  /** Whether values expire on their own (`ttlSeconds`): ToolStub then saves a reused result again. */
  get expires() {
    return this.#ttlMs !== undefined;
  }

  /** The ioredis client this store uses. */
  get client() {
    return this.#client;
  }

  /**
   * The Redis keys of session `session`.
   * @param {string} session
   * @returns {SessionKeys}
   */
  #session(session) {
    const tag = `{${this.#prefix}:${escapeTag(session)}}`;
    return {
      session,
      base: Buffer.from(`${tag}/`),
      keys: Buffer.from(`${tag}#keys`),
      len: Buffer.from(`${tag}#len`),
      exp: Buffer.from(`${tag}#exp`),
      /** @param {Buffer} member */
      lock: (member) => Buffer.concat([Buffer.from(`${tag}#lock/`), member]),
      /** @param {Buffer} member */
      held: (member) => Buffer.concat([Buffer.from(`${tag}#held/`), member]),
    };
  }

  get #sessionsKey() {
    return `{${this.#prefix}}:sessions`;
  }

  /** @param {StoreKey} key */
  #where(key) {
    const s = this.#session(key[0]);
    const member = memberOf(key.slice(1));
    return { s, member, valueKey: Buffer.concat([s.base, member]) };
  }

  /**
   * Runs `fn()`, failing with STORE_FAILED after the store's deadline or on any Redis error.
   * @template T
   * @param {string} what
   * @param {readonly string[]} key
   * @param {() => Promise<T>} fn
   * @returns {Promise<T>}
   */
  async #io(what, key, fn) {
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    /** @type {Promise<never>} */
    const deadline = new Promise((_, reject) => {
      timer = setTimeout(() => {
        const cause = new Error(`no answer from Redis within ${this.#timeoutMs} ms`);
        cause.name = "TimeoutError";
        reject(cause);
      }, this.#timeoutMs);
    });
    try {
      return await Promise.race([fn(), deadline]);
    } catch (err) {
      throw failed(what, key, err);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * A script by its SHA, loading it when the server does not have it yet.
   * @param {ScriptName} name
   * @param {Buffer[]} keys
   * @param {(string | Buffer | number)[]} args
   * @returns {Promise<unknown>}
   */
  async #script(name, keys, args) {
    try {
      return await this.#client.callBuffer("EVALSHA", SHAS[name], keys.length, ...keys, ...args);
    } catch (err) {
      if (!String(caught(err)?.message).startsWith("NOSCRIPT")) throw err;
      return this.#client.callBuffer("EVAL", SCRIPTS[name], keys.length, ...keys, ...args);
    }
  }

  /**
   * EXEC's answers, or the first error among them.
   * @param {Multi} multi
   * @returns {Promise<unknown[]>}
   */
  static async #exec(multi) {
    const answers = await multi.exec();
    if (answers === null) throw new Error("the transaction was aborted");
    for (const [err] of answers) if (err) throw err;
    return answers.map(([, value]) => value);
  }

  /** @param {StoreKey} key */
  async load(key) {
    validateKey(key);
    const { valueKey } = this.#where(key);
    const bytes = await this.#io("load", key, () => this.#client.getBuffer(valueKey));
    return bytes === null ? undefined : decode(bytes);
  }

  /**
   * @param {StoreKey} key
   * @param {string} value
   */
  async save(key, value) {
    return this.saveMany([{ key, value }]);
  }

  /**
   * Saves every entry in one MULTI/EXEC per session: the session's readers see all of them or
   * none (ToolStub writes a result's output, index and record this way).
   * @param {StoreEntry[]} entries
   */
  async saveMany(entries) {
    if (!Array.isArray(entries))
      throw new ToolStubError(
        "INVALID_ARGUMENT",
        "saveMany takes an array of { key, value } entries",
      );
    /** @type {Map<string, StoreEntry[]>} */
    const bySession = new Map();
    for (const entry of /** @type {unknown[]} */ (entries)) {
      if (entry === null || typeof entry !== "object")
        throw new ToolStubError(
          "INVALID_ARGUMENT",
          "saveMany takes an array of { key, value } entries",
        );
      const { key, value } = /** @type {{ key: unknown, value: unknown }} */ (entry);
      validateKey(key);
      validateValue(value);
      const checked = /** @type {StoreEntry} */ ({ key, value });
      const session = checked.key[0];
      let group = bySession.get(session);
      if (!group) {
        group = [];
        bySession.set(session, group);
      }
      group.push({ key: [...checked.key], value: checked.value });
    }
    await Promise.all([...bySession.values()].map((group) => this.#saveSession(group)));
  }

  /** @param {StoreEntry[]} group */
  async #saveSession(group) {
    const first = group[0].key;
    const s = this.#session(first[0]);
    const now = Date.now();
    // Encoded before anything is sent: a value of 100 MB is encoded once, here.
    const writes = group.map(({ key, value }) => {
      const member = memberOf(key.slice(1));
      return {
        member,
        valueKey: Buffer.concat([s.base, member]),
        bytes: isWellFormed(value) ? value : wtf8Buffer(value),
        length: value.length,
      };
    });
    const multi = this.#client.multi();
    for (const w of writes) {
      if (this.#ttlMs === undefined) multi.set(w.valueKey, w.bytes);
      else multi.set(w.valueKey, w.bytes, "PX", this.#ttlMs);
    }
    multi.zadd(s.keys, ...writes.flatMap((w) => [0, w.member]));
    multi.hset(s.len, ...writes.flatMap((w) => [w.member, String(w.length)]));
    const ttlMs = this.#ttlMs;
    if (ttlMs === undefined) {
      multi.eval(SCRIPTS.persistIndex, 3, s.keys, s.len, s.exp, ...writes.map((w) => w.member));
    } else {
      multi.zadd(s.exp, ...writes.flatMap((w) => [now + ttlMs, w.member]));
      multi.eval(SCRIPTS.expireIndex, 3, s.keys, s.len, s.exp, ttlMs);
    }
    const what = group.length === 1 ? "save" : `save ${group.length} values under`;
    await this.#io(what, first, () =>
      Promise.all([
        RedisStore.#exec(multi),
        // The session index (for an empty prefix) lives in another slot: it cannot join the MULTI.
        this.#indexSession(s.session, now),
      ]),
    );
  }

  /**
   * Adds a session to the session index, scored by when it was last written. With a TTL, sessions
   * not written for longer than it (so expired) leave the index here, or it would grow forever.
   * @param {string} session
   * @param {number} now
   */
  #indexSession(session, now) {
    // Saves running at once (a turn's results) share one index write: it is sent beside each of
    // their MULTIs as its own would be.
    const pending = this.#indexing.get(session);
    if (pending) return pending;
    /** @type {Promise<unknown>} */
    let write;
    if (this.#ttlMs === undefined) {
      write = this.#client.zadd(this.#sessionsKey, now, cesu8(session));
    } else {
      const multi = this.#client.multi().zadd(this.#sessionsKey, now, cesu8(session));
      multi.zremrangebyscore(this.#sessionsKey, "-inf", now - this.#ttlMs - EXPIRY_SKEW_MS);
      write = RedisStore.#exec(multi);
    }
    const shared = write.finally(() => this.#indexing.delete(session));
    this.#indexing.set(session, shared);
    return shared;
  }

  /** @param {StoreKey} key */
  async remove(key) {
    validateKey(key);
    const { s, member, valueKey } = this.#where(key);
    const multi = this.#client
      .multi()
      .unlink(valueKey)
      .zrem(s.keys, member)
      .hdel(s.len, member)
      .zrem(s.exp, member)
      .exists(s.keys);
    await this.#io("remove", key, async () => {
      const answers = await RedisStore.#exec(multi);
      // The session's last key: it leaves the session index (deleteSession ends here).
      if (answers.at(-1) === 0) await this.#forgetSessionIfEmpty(s);
    });
  }

  /** The sessions that hold keys (for an empty prefix), in key order. */
  async #sessions() {
    const members = await this.#io("list the sessions of", [], () =>
      this.#client.zrangeBuffer(this.#sessionsKey, 0, -1),
    );
    return members.map((m) => decode(m)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /**
   * The members under `rest` in session `s`, in key order.
   * @param {SessionKeys} s
   * @param {readonly string[]} rest
   * @param {string} what
   * @param {readonly string[]} prefix
   * @returns {Promise<Buffer[]>}
   */
  async #members(s, rest, what, prefix) {
    const [min, max] = rangeOf(rest);
    return this.#io(
      what,
      prefix,
      async () =>
        /** @type {Buffer[]} the script answers ZRANGEBYLEX's members */ (
          await this.#script("list", [s.keys, s.len, s.exp], [min, max, s.base])
        ),
    );
  }

  /**
   * @param {string[]} prefix
   * @returns {Promise<StoreKey[]>}
   */
  async loadKeys(prefix) {
    validatePrefix(prefix);
    if (prefix.length === 0) {
      /** @type {StoreKey[]} */
      const out = [];
      for (const session of await this.#sessions()) {
        const keys = await this.loadKeys([session]);
        // Emptied by expiry (or by another client): it leaves the index.
        if (keys.length === 0)
          await this.#io("list the sessions of", [], () =>
            this.#forgetSessionIfEmpty(this.#session(session)),
          );
        out.push(...keys);
      }
      return out;
    }
    const s = this.#session(prefix[0]);
    const members = await this.#members(s, prefix.slice(1), "list the keys under", prefix);
    return members.map((m) => [prefix[0], ...segmentsOf(m)]);
  }

  /**
   * @param {string[]} prefix
   * @returns {Promise<StoreEntry[]>}
   */
  async loadRange(prefix) {
    validatePrefix(prefix);
    if (prefix.length === 0) {
      /** @type {StoreEntry[]} */
      const out = [];
      for (const session of await this.#sessions()) out.push(...(await this.loadRange([session])));
      return out;
    }
    const s = this.#session(prefix[0]);
    const members = await this.#members(s, prefix.slice(1), "list the keys under", prefix);
    /** @type {StoreEntry[]} */
    const out = [];
    for (let i = 0; i < members.length; i += MGET_BATCH) {
      const batch = members.slice(i, i + MGET_BATCH);
      const values = await this.#io("load the values under", prefix, () =>
        this.#client.mgetBuffer(...batch.map((m) => Buffer.concat([s.base, m]))),
      );
      // A value removed (or expired) since its key was listed is no longer in the range.
      values.forEach((bytes, j) => {
        if (bytes !== null)
          out.push({ key: [prefix[0], ...segmentsOf(batch[j])], value: decode(bytes) });
      });
    }
    return out;
  }

  /** @param {string[]} prefix */
  async removeRange(prefix) {
    validatePrefix(prefix);
    if (prefix.length === 0) {
      for (const session of await this.#sessions()) await this.removeRange([session]);
      return;
    }
    const s = this.#session(prefix[0]);
    const [min, max] = rangeOf(prefix.slice(1));
    await this.#io("remove the keys under", prefix, async () => {
      await this.#script("removeRange", [s.keys, s.len, s.exp], [min, max, s.base]);
      await this.#forgetSessionIfEmpty(s);
    });
  }

  /**
   * Drops an emptied session from the session index. Checked again after: a save that landed in
   * between (it adds the session after its MULTI) puts it back.
   * @param {SessionKeys} s
   */
  async #forgetSessionIfEmpty(s) {
    if ((await this.#client.exists(s.keys)) !== 0) return;
    const member = cesu8(s.session);
    await this.#client.zrem(this.#sessionsKey, member);
    if ((await this.#client.exists(s.keys)) !== 0)
      await this.#client.zadd(this.#sessionsKey, Date.now(), member);
  }

  /**
   * value.length from the session's length hash, without loading the value.
   * @param {StoreKey} key
   */
  async size(key) {
    validateKey(key);
    const { s, member, valueKey } = this.#where(key);
    const multi = this.#client.multi().exists(valueKey).hget(s.len, member);
    const [exists, length] = await this.#io("size", key, () => RedisStore.#exec(multi));
    if (exists === 0) return undefined;
    // HGET answers a string or null.
    const n = Number(length);
    if (length !== null && Number.isSafeInteger(n) && n >= 0) return n;
    return (await this.load(key))?.length; // written by something else: measured
  }

  /**
   * loadSlice positions are byte offsets into the stored UTF-8 (WTF-8), read with GETRANGE.
   * @returns {"utf8"}
   */
  get sliceUnit() {
    return "utf8";
  }

  /**
   * @param {StoreKey} key
   * @param {number} start
   * @param {number} end
   */
  async loadSlice(key, start, end) {
    validateKey(key);
    validateSliceBounds(start, end);
    const { valueKey } = this.#where(key);
    return this.#io("read a span of", key, async () => {
      // GETRANGE's end is inclusive, and 0..-1 would be the whole value: an empty span only asks
      // whether there is a value.
      const bytes =
        end > start ? await this.#client.getrangeBuffer(valueKey, start, end - 1) : Buffer.alloc(0);
      // GETRANGE answers "" for a missing key too.
      if (bytes.length === 0 && (await this.#client.exists(valueKey)) === 0) return undefined;
      return decode(bytes);
    });
  }

  /**
   * An exclusive lock named by `key`, across every client of the Redis: SET NX PX with a random
   * token, renewed while held, released by compare-and-delete. A holder that dies frees it when its
   * lease runs out; the next taker is told (`recovered: true`) by a marker the holder leaves.
   * @param {StoreKey} key
   * @returns {Promise<import("./store.js").StoreLock>}
   */
  async lock(key) {
    validateKey(key);
    const { s, member } = this.#where(key);
    const lockKey = s.lock(member);
    const heldKey = s.held(member);
    const releaseLocal = await acquireLocal(this.#locks, lockKey.toString("latin1"));
    try {
      const token = randomBytes(16).toString("hex");
      const deadline = Date.now() + this.#lockWaitMs;
      let pause = 2;
      let recovered;
      for (;;) {
        const answer = /** @type {number} the lock script answers -1, 0 or 1 */ (
          await this.#io("take the lock", key, () =>
            this.#script("lock", [lockKey, heldKey], [token, this.#lockLeaseMs, this.#ttlMs ?? 0]),
          )
        );
        if (answer >= 0) {
          recovered = answer === 1;
          break;
        }
        if (Date.now() > deadline) {
          throw new ToolStubError(
            "STORE_FAILED",
            `RedisStore: the lock ${keyText(key)} is held by another client: gave up waiting after ${this.#lockWaitMs} ms`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, pause));
        pause = Math.min(pause * 2, 50);
      }
      const renew = setInterval(
        () => {
          this.#script("renew", [lockKey], [token, this.#lockLeaseMs]).catch(() => {});
        },
        Math.max(100, Math.floor(this.#lockLeaseMs / 3)),
      );
      renew.unref?.();
      let released = false;
      const release = async () => {
        if (released) return;
        released = true;
        clearInterval(renew);
        try {
          await this.#io("release the lock", key, () =>
            this.#script("unlock", [lockKey, heldKey], [token]),
          );
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
}
