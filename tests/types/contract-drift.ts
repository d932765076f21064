// The public declarations (hand-written js/index.d.ts) against the contract generated from the
// core (js/generated/contract.d.ts): each assertion below fails the type check when the two part,
// e.g. when the core renames a kind, an error code or a field of a value it returns.
import type * as Contract from "../../js/generated/contract.js";
import type * as Index from "../../js/index.js";
import type * as Stores from "../../js/stores/store.js";

/** Exactly the same type (a union that gains or loses a member is not). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2
  ? true
  : false;
/** Each assignable to the other: the same members, whether declared as interfaces or mapped. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Expect<T extends true> = T;
/** `notable_items` → `notableItems`: the public API's camelCase of a field the core writes. */
type Camel<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<Camel<Tail>>}`
  : S;
type Camelized<T> = { [K in keyof T as Camel<K & string>]: T[K] };
type Element<List> = List extends readonly (infer Item)[] ? Item : never;
/** What a read adds to the core's window: the id it read and its record. */
type ReadExtras = "toolResultId" | "mode" | "metadata";

export type Lists = [
  Expect<Equal<Index.SynopsisKind, Contract.ReferenceKind | Contract.EnhancedKind>>,
  Expect<Equal<Index.Synopsis["kind"], Contract.SynopsisKind>>,
  Expect<Equal<Index.SynopsisMode, Element<typeof Contract.SYNOPSIS_MODES>>>,
  Expect<Equal<Index.FailureMode, Element<typeof Contract.FAILURE_MODES>>>,
  Expect<Equal<NonNullable<Index.ToolStubConfig["failureMode"]>, Contract.FailureMode>>,
  Expect<Equal<NonNullable<Index.ToolStubConfig["synopsisMode"]>, Contract.SynopsisMode>>,
  Expect<
    Equal<Exclude<Index.ToolPart["externalizedReason"], "" | undefined>, Contract.ExternalizedReason>
  >,
  Expect<Equal<NonNullable<Index.SearchAllOptions["order"]>, Contract.SearchOrder>>,
  Expect<Equal<Index.ToolDefinitionFormat, Contract.ToolDefinitionFormat>>,
  Expect<Equal<Index.ToolStubErrorCode, Contract.ErrorCode>>,
  Expect<Equal<Stores.ToolStubErrorCode, Element<typeof Contract.ERROR_CODES>>>,
  Expect<Equal<Index.ToolCallError["error"]["code"], Contract.ErrorCode>>,
  Expect<Equal<Index.ToolStubError["code"], Contract.ErrorCode>>,
];

export type Shapes = [
  Expect<Same<Index.Synopsis, Camelized<Contract.Synopsis>>>,
  Expect<Equal<Index.ToolResultRecord, Contract.ToolResultRecord>>,
  Expect<Equal<Index.ToolResultRecord["synopsis"], Contract.Synopsis>>,
  Expect<Same<Omit<Index.ReadResult, ReadExtras>, Camelized<Contract.ReadWindow>>>,
  Expect<Same<Omit<Index.LineReadResult, ReadExtras>, Contract.LineWindow>>,
  Expect<Same<Omit<Index.JsonPointerReadResult, ReadExtras>, Contract.PointerRead>>,
  Expect<Same<Index.JsonCut, Contract.PointerRead["cuts"][number]>>,
  Expect<Same<Omit<Index.RowsReadResult, ReadExtras>, Contract.RowsRead>>,
  // A hit's `row` / `jsonPointer` are the hit coordinates the core adds for some kinds.
  Expect<Same<Omit<Index.SearchMatch, "row" | "jsonPointer">, Contract.GrepResult["matches"][number]>>,
  Expect<Same<Omit<Index.SearchResult, "toolResultId" | "matches">, Omit<Contract.GrepResult, "matches">>>,
  Expect<Same<Omit<Index.SearchAllResult, "results" | "skipped">, Omit<Contract.RankedSearch, "results">>>,
  Expect<
    Same<
      Omit<Index.SearchAllResult["results"][number], "matches">,
      Omit<Contract.RankedSearch["results"][number], "matches">
    >
  >,
  Expect<Same<Contract.RankedSearch["results"][number]["matches"][number], Contract.GrepResult["matches"][number]>>,
  // The tool calls' snake_case answers are the same values.
  Expect<Same<Index.ToolCallMatch, { [K in keyof Contract.GrepResult["matches"][number] as SnakeOf<K & string>]: Contract.GrepResult["matches"][number][K] }>>,
];

/** `totalMatches` → `total_matches`. */
type SnakeOf<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeOf<Tail>}`
  : S;
