// What the provider bundle gets for `import { Pool } from "undici"` (see 70-provider.mjs): the Pool with the request
// API mixed in, exactly as undici's index.js sets it up, without the rest of undici's index (fetch, WebSocket,
// EventSource, cookies, mocks, caches). Loading that rest reaches `globalThis.Headers`, which makes Node load its
// own copy of undici too: ~40 ms of every provider process's first RPC, for code the provider never runs.
"use strict";
const Dispatcher = require("undici/lib/dispatcher/dispatcher");
const api = require("undici/lib/api");

Object.assign(Dispatcher.prototype, api);

module.exports.Pool = require("undici/lib/dispatcher/pool");
