// The public declarations checked against the JS they declare: each entry point's exports, as tsc
// reads them from the JS and its JSDoc, must be assignable to what its .d.ts promises (a missing
// export, method or property, or a clashing type, fails the type check).
import type * as Index from "../../js/index.js";
import type * as Node from "../../js/node.js";
import type * as Browser from "../../js/browser.js";
import type * as Redis from "../../js/redis.js";
import type * as Mcp from "../../js/mcp/index.js";
import * as indexNode from "../../js/index-node.js";
import * as indexBrowser from "../../js/index-browser.js";
import { NodeFsStore } from "../../js/stores/node-fs.js";
import { IndexedDbStore } from "../../js/stores/indexeddb.js";
import { RedisStore } from "../../js/stores/redis.js";
import { retrievalTools, callRetrievalTool } from "../../js/mcp/retrieval.js";
import { externalizeToolResult, rewriteToolList } from "../../js/mcp/rewrite.js";
import { createRetrievalServer, runRetrievalServer } from "../../js/mcp/server.js";
import { McpProxy, runProxy } from "../../js/mcp/proxy.js";
import { StdioConnection, HttpConnection } from "../../js/mcp/wrapped.js";

export const nodeIndex: typeof Index = indexNode;
export const browserIndex: typeof Index = indexBrowser;
export const node: typeof Node = { ...indexNode, NodeFsStore };
export const browser: typeof Browser = { ...indexBrowser, IndexedDbStore };
export const redis: typeof Redis = { RedisStore };
export const mcp: typeof Mcp = {
  retrievalTools,
  callRetrievalTool,
  externalizeToolResult,
  rewriteToolList,
  createRetrievalServer,
  runRetrievalServer,
  McpProxy,
  runProxy,
  StdioConnection,
  HttpConnection,
};
