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

/** `read`'s default limit, in code points. */
export const DEFAULT_READ_LIMIT = 20000;

/** `list`'s default limit. */
export const DEFAULT_LIST_LIMIT = 50;

/** How many chars of a tool result the context governor's plan reads to tell its form. */
export const CONTEXT_HEAD_CHARS = 4096;
