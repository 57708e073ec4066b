/**
 * The layering written down as lint rules (eslint.config.mjs, eslint/layers.mjs) catches what it says it catches:
 * a planted import that crosses a boundary fails the lint, the same import in a test file or within the layer does not.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";

const ROOT = join(__dirname, "..");
const ESLINT = join(ROOT, "node_modules", "eslint", "bin", "eslint.js");

/** The layer errors the project's ESLint (its own CLI, as `npm run lint` runs it) reports for `source` at `file`. */
function layerErrors(file: string, source: string): string[] {
  const run = spawnSync(process.execPath, [ESLINT, "--stdin", "--stdin-filename", file, "--format", "json"], {
    cwd: ROOT,
    input: source,
    encoding: "utf8",
  });
  const [result] = JSON.parse(run.stdout) as { messages: { ruleId: string | null; message: string }[] }[];
  return result.messages.filter((m) => m.ruleId === "chainform/layers").map((m) => m.message);
}

describe("the import boundaries", () => {
  test.each([
    ["lib/client/planted.ts", 'import { buildApp } from "../service/app";\nexport const x = buildApp;\n', "lib/service"],
    ["lib/constructs/planted.ts", 'import { createClient } from "../client";\nexport const x = createClient;\n', "lib/client"],
    [
      "lib/terraform/protocol/planted.ts",
      'import { Diagnostics } from "../framework/diagnostics";\nexport const x = Diagnostics;\n',
      "lib/terraform/framework",
    ],
    ["lib/terraform/framework/planted.ts", 'export * from "../provider/provider";\n', "lib/terraform/provider"],
    [
      "lib/terraform/provider/resources/planted.ts",
      'const wire = require("../../protocol/cty/type");\nexport const x = wire;\n',
      "lib/terraform/protocol",
    ],
    ["lib/domain/planted.ts", 'export const load = () => import("../service/store");\n', "lib/service"],
    ["lib/domain/planted-schema.ts", 'import { Slug } from "../api/common";\nexport const x = Slug;\n', "lib/api"],
    ["lib/domain/planted-oci.ts", 'export { isOciUrl } from "../oci";\n', "lib/oci"],
    ["lib/oci/planted.ts", 'import { readFixture } from "../service/environment-files";\nexport const x = readFixture;\n', "lib/service"],
    ["lib/constructs/planted-schema.ts", 'import { Slug } from "../api/common";\nexport const x = Slug;\n', "lib/api"],
    ["lib/client/planted-schema.ts", 'import { Environment } from "../api";\nexport const x = Environment;\n', "lib/api"],
    ["lib/terraform/provider/planted-schema.ts", 'export { Address } from "../../api/common";\n', "lib/api"],
    [
      "lib/service/planted.ts",
      'import { ChainformProvider } from "../constructs/provider";\nexport const x = ChainformProvider;\n',
      "lib/constructs",
    ],
    ["lib/web/planted.ts", 'import { Store } from "../service/store";\nexport const x = Store;\n', "lib/service"],
    [
      "lib/web/dashboard/planted.ts",
      'import type { TransactionFilters } from "../../service/store/records";\nexport type X = TransactionFilters;\n',
      "lib/service",
    ],
    ["lib/web/planted-beside.ts", 'export { baseUrlOf } from "../service/routes/common";\n', "lib/service"],
    ["lib/service/planted-web.ts", 'import { Sessions } from "../web/dashboard/sessions";\nexport const x = Sessions;\n', "lib/web"],
    // The service imports nothing of its web UI; only listen.ts composes it.
    ["lib/service/planted-web-plugin.ts", 'import { registerWeb } from "../web";\nexport const x = registerWeb;\n', "lib/web"],
    ["lib/service/app.ts", 'import { registerWeb } from "../web";\nexport const x = registerWeb;\n', "lib/web"],
    ["lib/service/chains/planted.ts", 'import type { WebAccess } from "../../web";\nexport type X = WebAccess;\n', "lib/web"],
    // The API, the RPC URLs and the web UI are three plugins: none imports another.
    ["lib/service/app.ts", 'import { registerRpc } from "./rpc";\nexport const x = registerRpc;\n', "lib/service/rpc"],
    ["lib/service/routes/planted.ts", 'import { RpcPipeline } from "../rpc/pipeline";\nexport const x = RpcPipeline;\n', "lib/service/rpc"],
    ["lib/service/rpc/planted.ts", 'import { buildApp } from "../app";\nexport const x = buildApp;\n', "lib/service/app"],
    ["lib/service/rpc/planted-route.ts", 'export { UNKNOWN_RPC_URL } from "../routes/common";\n', "lib/service/routes"],
    ["lib/service/auth/plugin.ts", 'import { registerRpc } from "../rpc";\nexport const x = registerRpc;\n', "lib/service/rpc"],
    [
      "lib/service/rpc/planted-plugin.ts",
      'import { rateLimit } from "../rate-limit/plugin";\nexport const x = rateLimit;\n',
      "lib/service/rate-limit/plugin",
    ],
    ["lib/service/routes/planted-web.ts", 'export { serviceForWeb } from "../web-interface";\n', "lib/service/web-interface"],
    // Each concern is one folder: its plugin knows no route, no transport, no composer.
    ["lib/service/cors/planted.ts", 'import { registerRpc } from "../rpc";\nexport const x = registerRpc;\n', "lib/service/rpc"],
    [
      "lib/service/rate-limit/planted.ts",
      'import { registerRoutes } from "../routes";\nexport const x = registerRoutes;\n',
      "lib/service/routes",
    ],
    ["lib/service/errors/planted.ts", 'import { buildService } from "../listen";\nexport const x = buildService;\n', "lib/service/listen"],
    [
      "lib/service/auth/planted.ts",
      'import { serviceForWeb } from "../web-interface";\nexport const x = serviceForWeb;\n',
      "lib/service/web-interface",
    ],
    [
      "lib/service/validation/planted.ts",
      'import { RpcPipeline } from "../rpc/pipeline";\nexport const x = RpcPipeline;\n',
      "lib/service/rpc",
    ],
    // ... and its rule stands below its plugin, and below what the plugins share.
    ["lib/service/cors/index.ts", 'import { corsHeaders } from "./plugin";\nexport const x = corsHeaders;\n', "lib/service/cors/plugin"],
    [
      "lib/service/rate-limit/index.ts",
      'import type { ServiceContext } from "../context";\nexport type X = ServiceContext;\n',
      "lib/service/context",
    ],
    ["lib/service/errors/index.ts", 'import { errors } from "./plugin";\nexport const x = errors;\n', "lib/service/errors/plugin"],
    [
      "lib/service/errors/client-errors.ts",
      'import { sendError } from "./plugin";\nexport const x = sendError;\n',
      "lib/service/errors/plugin",
    ],
    ["lib/service/auth/index.ts", 'import { authenticate } from "./plugin";\nexport const x = authenticate;\n', "lib/service/auth/plugin"],
    [
      "lib/service/auth/access.ts",
      'import { requireCredentials } from "./plugin";\nexport const x = requireCredentials;\n',
      "lib/service/auth/plugin",
    ],
    [
      "lib/service/validation/index.ts",
      'import { jsonBodies } from "./json-bodies";\nexport const x = jsonBodies;\n',
      "lib/service/validation/json-bodies",
    ],
    // The leaves, the seed and the environment operations import nothing above their floor.
    ["lib/service/log/planted.ts", 'import { Authenticator } from "../auth";\nexport const x = Authenticator;\n', "lib/service/auth"],
    ["lib/service/https/planted.ts", 'import { buildApp } from "../app";\nexport const x = buildApp;\n', "lib/service/app"],
    [
      "lib/service/seed/planted.ts",
      'import { EnvironmentFixtures } from "../environment-files";\nexport const x = EnvironmentFixtures;\n',
      "lib/service/environment-files",
    ],
    [
      "lib/service/environment-plan/planted.ts",
      'import { readFixture } from "../environment-files";\nexport const x = readFixture;\n',
      "lib/service/environment-files",
    ],
    [
      "lib/service/environment-files/planted.ts",
      'import { fixtureRoutes } from "../routes/environments/files";\nexport const x = fixtureRoutes;\n',
      "lib/service/routes",
    ],
    [
      "lib/client/shapes/planted.ts",
      'import { getTransaction } from "../actions/getTransaction";\nexport const x = getTransaction;\n',
      "lib/client/actions",
    ],
    // The chain engine's face is the one door; the store and the SQLite driver know nothing of chains.
    [
      "lib/service/rpc/planted-chains.ts",
      'import { JsonRpcClient } from "../chains/wire/json-rpc";\nexport const x = JsonRpcClient;\n',
      "lib/service/chains",
    ],
    ["lib/service/store/planted.ts", 'import type { ChainHost } from "../chains";\nexport type X = ChainHost;\n', "lib/service/chains"],
    ["lib/service/sqlite/planted.ts", 'import { Store } from "../store";\nexport const x = Store;\n', "lib/service/store"],
    ["lib/service/chains/planted-store.ts", 'import { Store } from "../store";\nexport const x = Store;\n', "lib/service/store"],
    // The chain engine's rooms, floor by floor: none imports a room of its floor or above, nor the engine.
    [
      "lib/service/chains/evm/planted.ts",
      'import { JsonRpcClient } from "../wire/json-rpc";\nexport const x = JsonRpcClient;\n',
      "lib/service/chains/wire",
    ],
    [
      "lib/service/chains/wire/planted.ts",
      'import { ChainPool } from "../pool";\nexport const x = ChainPool;\n',
      "lib/service/chains/pool",
    ],
    [
      "lib/service/chains/node/planted.ts",
      'import { forward } from "../calls/rpc-proxy";\nexport const x = forward;\n',
      "lib/service/chains/calls",
    ],
    [
      "lib/service/chains/calls/planted.ts",
      'import { createAnvilBackend } from "../node/anvil";\nexport const x = createAnvilBackend;\n',
      "lib/service/chains/node",
    ],
    [
      "lib/service/chains/pool/planted.ts",
      'import { CallEffects } from "../transactions/call-effects";\nexport const x = CallEffects;\n',
      "lib/service/chains/transactions",
    ],
    [
      "lib/service/chains/transactions/planted.ts",
      'import { depositsIn } from "../bridge/contract";\nexport const x = depositsIn;\n',
      "lib/service/chains/bridge",
    ],
    [
      "lib/service/chains/transactions/planted-sql.ts",
      'import type { SqlDatabase } from "../../sqlite";\nexport type X = SqlDatabase;\n',
      "lib/service/sqlite",
    ],
    [
      "lib/service/chains/fork/planted.ts",
      'import { ChainJournal } from "../durability/journal";\nexport const x = ChainJournal;\n',
      "lib/service/chains/durability",
    ],
    [
      "lib/service/chains/durability/planted.ts",
      'import { NetworkReplicas } from "../simulation/replicas";\nexport const x = NetworkReplicas;\n',
      "lib/service/chains/simulation",
    ],
    [
      "lib/service/chains/simulation/planted.ts",
      'import { RelayStore } from "../durability/relays";\nexport const x = RelayStore;\n',
      "lib/service/chains/durability",
    ],
    [
      "lib/service/chains/bridge/planted.ts",
      'import { BackendChainEngine } from "../engine";\nexport const x = BackendChainEngine;\n',
      "lib/service/chains/engine",
    ],
  ])("%s: a planted import is refused", async (file, source, forbidden) => {
    // GIVEN a file planted in a layer, importing from a layer it must not know
    // WHEN the project's lint configuration checks it
    const errors = layerErrors(file, source);
    // THEN the lint fails, naming the forbidden folder
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(`may not import ${forbidden}`);
  });

  test("allow imports within a layer, of the domain, the API's types where allowed, and from tests", async () => {
    expect(
      layerErrors(
        "lib/client/planted.ts",
        'import { isSlug } from "../domain";\nimport { BaseError } from "./errors/base";\nexport const x = [isSlug, BaseError];\n',
      ),
    ).toEqual([]);
    expect(layerErrors("lib/client/planted.ts", 'import type { Environment } from "../api";\nexport type X = Environment;\n')).toEqual([]);
    expect(layerErrors("lib/client/planted.test.ts", 'import { buildApp } from "../service/app";\nexport const x = buildApp;\n')).toEqual(
      [],
    );
    expect(
      layerErrors(
        "lib/web/planted.ts",
        'import { ServiceError, type StoreViews } from "../service/web-interface";\nexport const x = ServiceError;\nexport type X = StoreViews;\n',
      ),
    ).toEqual([]);
    expect(layerErrors("lib/web/dashboard/planted.ts", 'export type { Requester } from "../../service/web-interface";\n')).toEqual([]);
    expect(layerErrors("lib/service/listen.ts", 'import { registerWeb } from "../web";\nexport const x = registerWeb;\n')).toEqual([]);
    expect(layerErrors("lib/service/listen.ts", 'import { registerRpc } from "./rpc";\nexport const x = registerRpc;\n')).toEqual([]);
    expect(
      layerErrors("lib/service/rpc/planted.ts", 'import type { ServiceContext } from "../context";\nexport type X = ServiceContext;\n'),
    ).toEqual([]);
    // The planes share the concerns' rules; the routes and the CLI's operations share the environment operations.
    expect(
      layerErrors(
        "lib/service/rpc/planted.ts",
        'import { SlidingWindowLimiter } from "../rate-limit";\nimport { addCorsHeaders } from "../cors";\nimport { rawErrorAnswer } from "../errors/client-errors";\nexport const x = [SlidingWindowLimiter, addCorsHeaders, rawErrorAnswer];\n',
      ),
    ).toEqual([]);
    expect(
      layerErrors(
        "lib/service/routes/planted.ts",
        'import { readFixture } from "../environment-files";\nimport { planEnvironment } from "../environment-plan/plan";\nexport const x = [readFixture, planEnvironment];\n',
      ),
    ).toEqual([]);
    expect(
      layerErrors(
        "lib/service/environment-files/planted.ts",
        'import { planEnvironment } from "../environment-plan/plan";\nexport const x = planEnvironment;\n',
      ),
    ).toEqual([]);
    expect(
      layerErrors("lib/service/rpc/planted.ts", 'import { ChainRequestError } from "../chains";\nexport const x = ChainRequestError;\n'),
    ).toEqual([]);
    expect(
      layerErrors(
        "lib/service/chains/bridge/planted.ts",
        'import { RelayStore } from "../durability/relays";\nexport const x = RelayStore;\n',
      ),
    ).toEqual([]);
    expect(
      layerErrors(
        "lib/service/chains/durability/planted.ts",
        'import type { SqlDatabase } from "../../sqlite";\nexport type X = SqlDatabase;\n',
      ),
    ).toEqual([]);
    expect(
      layerErrors("lib/service/chains/engine.ts", 'import { JsonRpcClient } from "./wire/json-rpc";\nexport const x = JsonRpcClient;\n'),
    ).toEqual([]);
  });
});
