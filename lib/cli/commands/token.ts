/**
 * `chainform token [--data-dir .chainform] [--user NAME] [--ttl SECONDS]`: prints a bearer token (JWT HS256,
 * at most 30 days) for the seed's first user or the named one, signed with the data dir's secret.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { MAX_TOKEN_LIFETIME_SECONDS, signToken } from "../../service/auth";
import { Store } from "../../service/store";
import { DATABASE_FILE } from "../../service/store/database";
import { UsageError, type Command } from "../command";
import { DEFAULT_DATA_DIR } from "./serve";

/** The options of `chainform token`. */
const OPTIONS = {
  "data-dir": { type: "string", default: DEFAULT_DATA_DIR },
  user: { type: "string" },
  ttl: { type: "string", default: String(MAX_TOKEN_LIFETIME_SECONDS) },
} as const satisfies ParseArgsConfig["options"];

const token: Command = {
  name: "token",
  options: OPTIONS,
  summary: "print a bearer token (JWT) for a user of the local service",
  usage: `usage: chainform token [--data-dir DIR] [--user NAME] [--ttl SECONDS]

Prints a bearer token (JWT, HS256) for a user of the local service whose data is in --data-dir, signed with that
data dir's secret, for CHAINFORM_BEARER_TOKEN. Run it where \`chainform serve --data-dir DIR\` keeps its data.

  --data-dir DIR     the local service's data dir (default ${DEFAULT_DATA_DIR})
  --user NAME        the user's slug (default: the seed's first user)
  --ttl SECONDS      how long the token is valid (default and most: ${MAX_TOKEN_LIFETIME_SECONDS}, 30 days)
`,
  async run(args) {
    const { values } = parseArgs({
      args,
      strict: true,
      options: OPTIONS,
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
