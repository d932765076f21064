// Generated from the core's constants (src/js_constants.rs): do not edit.
// Write it again with: TOOL_STUB_WRITE_GENERATED=1 cargo test --test generated_js

/** The folder of a session's results: `<session>/tool-results/<id>/`. */
export const RESULTS_DIR = "tool-results";

/** A result's raw output. */
export const OUTPUT_FILE = "output.txt";

/** A result's record, written last: a result exists once it is. */
export const METADATA_FILE = "metadata.json";

/** A result's position index (see output-index.js). */
export const INDEX_FILE = "index.json";

/** The folder of a session's catalog: `<session>/tool-stub/` (see src/catalog.rs). */
export const CATALOG_DIR = "tool-stub";

/** The catalog's index: its totals and its pages' names, first ids and sums. */
export const CATALOG_INDEX_FILE = "catalog-index";

/** The folder of the catalog's pages (entries in id order, never rewritten in place). */
export const CATALOG_PAGES_DIR = "catalog-pages";

/** The catalog's snapshot in the layout before pages (read once, then written in pages). */
export const SNAPSHOT_FILE = "catalog.json";

/** The folder of the log records after the snapshot, in the layout before pages. */
export const LOG_DIR = "catalog-log";

/** The catalog's generation, in the layout before pages. */
export const HEAD_FILE = "catalog-head";

/** The session's lock. */
export const LOCK_FILE = "lock";

/** A catalog snapshot's `format`. */
export const CATALOG_FORMAT = "tool-stub-catalog";

/** The catalog head's `format`. */
export const HEAD_FORMAT = "tool-stub-catalog-head";

/** `read`'s default limit, in code points. */
export const DEFAULT_READ_LIMIT = 20000;

/** `list`'s default limit. */
export const DEFAULT_LIST_LIMIT = 50;

/** How many chars of a tool result the context governor's plan reads to tell its form. */
export const CONTEXT_HEAD_CHARS = 4096;

/** A catalog snapshot's `version`. */
export const CATALOG_VERSION = 1;

/** Entries of the catalog's newest page: a newest-first window this long reads it alone. */
export const CATALOG_RECENT_ENTRIES = 100;
