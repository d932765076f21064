// `tool-stub/redis`: the Redis store, over an ioredis client the caller creates. Only this entry
// point knows Redis, and it never imports ioredis itself (an optional peer dependency).
export { RedisStore } from "./stores/redis.js";
