/**
 * Child process of lib/service/store/database.test.ts: opens the store's database in the data dir given, commits
 * one environment-sized multi-row write, says so on stdout, then SIGKILLs itself (no close, no checkpoint).
 */
import { join } from "node:path";
import { openDatabase } from "../lib/service/store/database";

const db = openDatabase(join(process.argv[2], "chainform.db"));
const rows = Number(process.argv[3]);
db.transaction(() => {
  for (let i = 0; i < rows; i++) db.prepare("INSERT INTO meta (key, value) VALUES (?, ?)").run(`k${i}`, `v${i}`);
}).immediate();
process.stdout.write(`${JSON.stringify({ committed: rows, driver: db.driver })}\n`, () => process.kill(process.pid, "SIGKILL"));
