/** What a Node.js 20 user reads when better-sqlite3, an optional peer dependency of chainform, is not installed. */
import { betterSqlite3Unavailable } from ".";

test("a missing better-sqlite3 gets the one command that adds it", () => {
  const missing = Object.assign(
    new Error("Cannot find module 'better-sqlite3'\nRequire stack:\n- /app/node_modules/chainform/dist/service/store/sqlite.js"),
    {
      code: "MODULE_NOT_FOUND",
    },
  );
  expect(betterSqlite3Unavailable(missing, "v20.20.2")).toBe(
    "Node.js v20.20.2 has no node:sqlite: run `npm install better-sqlite3` in your project (the local service's SQLite on Node.js 20; where npm asks, allow its install script in allowScripts), or use Node.js 22.13+, 24 or 26.",
  );
});

test("a better-sqlite3 that is there but does not load (built for another Node.js) gets the rebuild command", () => {
  const mismatch = new Error(
    "The module was compiled against a different Node.js version using NODE_MODULE_VERSION 127.\nThis version requires 115.",
  );
  expect(betterSqlite3Unavailable(mismatch, "v20.20.2")).toMatch(
    /could not be loaded: The module was compiled against .*127\. Run `npm rebuild better-sqlite3`/,
  );
});
