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
 * Given `ToolStub` (the class of the build under test), the checks of sessions sharing the store
 * (read grants: `sessionCases`) run too.
 */
export declare function runStoreConformance(
  setup: () => Store | Promise<Store>,
  options?: {
    onResult?: (result: ConformanceResult) => void;
    ToolStub?: typeof import("./index.js").ToolStub;
  },
): Promise<{ passed: number; failed: number; results: ConformanceResult[] }>;

/** Checks of sessions sharing one store (read grants), run with the ToolStub class under test. */
export declare const sessionCases: ReadonlyArray<{
  name: string;
  run(
    setup: () => Store | Promise<Store>,
    ToolStub: typeof import("./index.js").ToolStub,
  ): Promise<void>;
}>;

/** The checks themselves, for a test framework: `for (const c of cases) test(c.name, () => c.run(setup))`. */
export declare const cases: ReadonlyArray<{
  name: string;
  run(setup: () => Store | Promise<Store>): Promise<void>;
}>;
