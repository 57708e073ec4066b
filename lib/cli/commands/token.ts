/**
 * `chainform token [--data-dir .chainform] [--user NAME] [--ttl SECONDS]`: prints a bearer token (JWT HS256,
 * at most 30 days) for the seed's first user or the named one, signed with the data dir's secret.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { MAX_TOKEN_LIFETIME_SECONDS, signToken } from "../../service/auth";
import { Store } from "../../service/store";
import { DATABASE_FILE } from "../../service/store/database";
import { UsageError, type Command } from "../command";
import { DEFAULT_DATA_DIR } from "./serve";

const token: Command = {
  name: "token",
  summary: "print a bearer token (JWT) for a user of the local service",
  async run(args) {
    const { values } = parseArgs({
      args,
      strict: true,
      options: {
        "data-dir": { type: "string", default: DEFAULT_DATA_DIR },
        user: { type: "string" },
        ttl: { type: "string", default: String(MAX_TOKEN_LIFETIME_SECONDS) },
      },
    });
    const ttl = /^[0-9]+$/.test(values.ttl) ? Number(values.ttl) : NaN;
    if (!(ttl >= 1 && ttl <= MAX_TOKEN_LIFETIME_SECONDS)) {
      throw new UsageError(`--ttl must be 1 to ${MAX_TOKEN_LIFETIME_SECONDS} seconds (30 days)`);
    }
    const dataDir = resolve(values["data-dir"]);
    if (!existsSync(join(dataDir, DATABASE_FILE))) {
      throw new UsageError(`no local service data in ${dataDir}: run \`chainform serve --data-dir ${values["data-dir"]}\` first`);
    }
    const store = Store.open({ dataDir });
    try {
      const userId = values.user === undefined ? store.accounts.firstUserId() : store.accounts.bySlug(values.user)?.id;
      const user = userId === undefined ? undefined : store.accounts.byId(userId);
      if (!user || user.type !== "user") throw new UsageError(`no user named ${values.user ?? "(first user)"} in ${dataDir}`);
      process.stdout.write(`${signToken({ sub: user.id, ttlSeconds: ttl }, store.secret("jwt_secret"))}\n`);
      return 0;
    } finally {
      store.close();
    }
  },
};
export default token;
