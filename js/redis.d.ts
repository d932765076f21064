// Type declarations for `tool-stub/redis`.
import type { Cluster, Redis } from "ioredis";
import type { SliceUnit, Store, StoreEntry, StoreKey, StoreLock } from "./stores/store.js";

export interface RedisStoreOptions {
  /** An ioredis client the caller creates (and closes): `new Redis(...)` or `new Redis.Cluster(...)`. */
  client: Redis | Cluster;
  /** Default "tool-stub". Every Redis key of session S carries the hash tag `{<keyPrefix>:<S>}`. */
  keyPrefix?: string;
  /** Values expire this long after they are saved (Redis expiry); see "Redis" in the README. */
  ttlSeconds?: number;
  /** A store call that takes longer fails with STORE_FAILED. Default 30,000. */
  timeoutMs?: number;
  /** A lock its holder stopped renewing (it died) is free again after this. Default 15,000. */
  lockLeaseMs?: number;
  /** How long lock() waits for the holder before it fails with STORE_FAILED. Default 120,000. */
  lockWaitMs?: number;
}

/**
 * A store on Redis or a Redis Cluster, shared by every instance that uses the same Redis and
 * keyPrefix. All keys of one session live in one hash slot. Values are kept exactly (WTF-8 for
 * lone surrogates); Redis errors and timeouts are ToolStubError STORE_FAILED.
 */
export declare class RedisStore implements Store {
  constructor(options: RedisStoreOptions);
  readonly client: Redis | Cluster;
  /** True with ttlSeconds: values expire on their own. */
  readonly expires: boolean;
  load(key: StoreKey): Promise<string | undefined>;
  save(key: StoreKey, value: string): Promise<void>;
  /** Every entry of one session in one MULTI/EXEC: readers see all of them or none. */
  saveMany(entries: StoreEntry[]): Promise<void>;
  remove(key: StoreKey): Promise<void>;
  loadRange(prefix: string[]): Promise<StoreEntry[]>;
  removeRange(prefix: string[]): Promise<void>;
  loadKeys(prefix: string[]): Promise<StoreKey[]>;
  lock(key: StoreKey): Promise<StoreLock>;
  /** From the session's length hash, without loading the value. */
  size(key: StoreKey): Promise<number | undefined>;
  /** GETRANGE over the stored UTF-8 (WTF-8) bytes. */
  loadSlice(key: StoreKey, start: number, end: number): Promise<string | undefined>;
  readonly sliceUnit: "utf8";
}

export type { SliceUnit, Store, StoreEntry, StoreKey, StoreLock };
