// Types of `tool-stub/testing`: the store conformance suite.

import type { Store } from "./stores/store";

export interface ConformanceResult {
  name: string;
  ok: boolean;
  /** `Name: message` of what failed. */
  error?: string;
  ms: number;
}

/**
 * Runs every conformance check against stores made by `setup()` (a fresh, empty store per call).
 * Optional methods (`size`, `saveMany`, `loadSlice`, `loadKeys`, `loadPieces`, `lock`) are checked when the store has them.
 */
export declare function runStoreConformance(
  setup: () => Store | Promise<Store>,
  options?: { onResult?: (result: ConformanceResult) => void },
): Promise<{ passed: number; failed: number; results: ConformanceResult[] }>;

/** The checks themselves, for a test framework: `for (const c of cases) test(c.name, () => c.run(setup))`. */
export declare const cases: ReadonlyArray<{
  name: string;
  run(setup: () => Store | Promise<Store>): Promise<void>;
}>;
