/**
 * A strict stand-in for the hosted service, answering only with the shapes its public docs show
 * (docs/api.md, summarized in lib/terraform/provider/README.md): the fixtures below are
 * written from the documented examples, field for field, with none of the local service's extras (no
 * `network_configs`, `bridge_config`, `chain_config`, `error.data`, `X-Svc-*` headers, no stop-action body, a
 * list of simulations that ignores `page`). Requests are checked as strictly: an unknown body field or query
 * parameter, a missing `X-Access-Key`, or a path outside the documented ones is a 400/401/404 with the documented
 * error body. Environments live in memory so that create, get, list, delete and import can be exercised.
 *
 * @example
 * const stub = await startDocumentedStub();
 * const client = createClient({ baseUrl: stub.baseUrl, accessKey: stub.accessKey, accountSlug: "acme", projectSlug: "demo" });
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes, randomUUID } from "node:crypto";

/** A documented project (list projects). */
export const PROJECT = {
  id: "4c7c4a0e-1d9f-4b8a-9f3e-2c1a6b9d8e01",
  name: "Demo",
  slug: "demo",
  owner_id: "9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d",
  public: false,
  restricted: false,
  high_volume: false,
  in_transfer: false,
  is_module: false,
  created_at: "2024-03-01T10:00:00Z",
  last_push_at: null,
  number_of_users: 2,
  options: null,
  owner: { id: "9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d", username: "acme", first_name: "", last_name: "", email: "", type: "organization" },
  permissions: {
    add_contract: true,
    update_contract: true,
    remove_contract: true,
    create_alert: true,
    update_alert: true,
    remove_alert: true,
    create_and_update_analytics: true,
    manage_collaborators: false,
  },
};

/** A documented delivery channel. */
export const DELIVERY_CHANNEL = {
  id: "0f1e2d3c-4b5a-4968-8776-655443322110",
  type: "email",
  owner_id: PROJECT.owner_id,
  project_id: null,
  label: "Ops",
  reference_id: "ops@example.com",
  enabled: true,
  created_at: "2024-03-01T10:00:00Z",
  information: { email: "ops@example.com", emails: ["ops@example.com"] },
};

/** Documented supported networks: a top-level array, chain ids as strings. */
export const SUPPORTED_NETWORKS = [
  {
    network_name: "Mainnet",
    chain_id: "1",
    network_slugs: { explorer_slug: "mainnet", node_rpc_slug: "mainnet", vnet_rpc_slug: "mainnet" },
    supported_features: { virtual_testnet: true, node: true, explorer: true, simulator: true, monitoring: true },
  },
  {
    network_name: "Base",
    chain_id: "8453",
    network_slugs: { explorer_slug: "base", node_rpc_slug: "base", vnet_rpc_slug: "base" },
    supported_features: { virtual_testnet: true, node: true, explorer: true, simulator: true, monitoring: true },
  },
  {
    network_name: "zkSync Era",
    chain_id: "324",
    network_slugs: { explorer_slug: "zksync", node_rpc_slug: "", vnet_rpc_slug: "" },
    supported_features: { virtual_testnet: false, node: false, explorer: true, simulator: true, monitoring: true },
  },
];

/** The documented project-simulate answer: `{ transaction, simulation, contracts }`. */
export const PROJECT_SIMULATION = {
  transaction: {
    hash: `0x${"5a".repeat(32)}`,
    block_number: 19000000,
    from: "0x0000000000000000000000000000000000000001",
    to: "0x0000000000000000000000000000000000000002",
    gas: 8000000,
    gas_used: 21000,
    status: true,
    transaction_info: {
      call_trace: {
        call_type: "CALL",
        from: "0x0000000000000000000000000000000000000001",
        to: "0x0000000000000000000000000000000000000002",
        gas_used: 21000,
      },
      logs: [],
    },
  },
  simulation: {
    id: "7e6d5c4b-3a29-4817-9605-f4e3d2c1b0a9",
    project_id: PROJECT.id,
    owner_id: PROJECT.owner_id,
    network_id: "1",
    block_number: 19000000,
    status: true,
    gas_used: 21000,
    created_at: "2024-03-01T10:00:00Z",
  },
  contracts: [{ address: "0x0000000000000000000000000000000000000002", contract_name: "Token", network_id: "1" }],
};

/** The documented list of simulations (`block_number` a number there). */
export const SIMULATIONS = { simulations: [PROJECT_SIMULATION.simulation] };

/** The documented vnet simulate answer: a bare object. */
export const VNET_SIMULATION = {
  blockNumber: "0x1220b5c",
  cumulativeGasUsed: "0x5208",
  gasUsed: "0x5208",
  logs: [],
  logsBloom: `0x${"0".repeat(512)}`,
  status: true,
  trace: [],
  type: "0x2",
};

/** The documented transaction record. */
export const transactionRecord = (vnetId: string) => ({
  id: "c0ffee00-0000-4000-8000-000000000001",
  vnet_id: vnetId,
  origin: "rpc",
  category: "write",
  kind: "blockchain",
  status: "success",
  error_reason: "",
  reverted: false,
  rpc_method: "eth_sendTransaction",
  created_at: "2024-03-01T10:00:00Z",
  dashboard_url: "https://dashboard.example/tx/1",
  block_number: "0x1220b5d",
  block_hash: `0x${"bb".repeat(32)}`,
  tx_hash: `0x${"aa".repeat(32)}`,
  tx_index: "0x0",
  from: "0x0000000000000000000000000000000000000001",
  to: "0x0000000000000000000000000000000000000002",
  input: "0x",
  nonce: "0x0",
  value: "0x2a",
  gas: "0x5208",
  gas_price: "0x0",
  max_priority_fee_per_gas: "0x0",
  max_fee_per_gas: "0x0",
  type: "0x2",
  function_name: "",
});

/** A running stub. */
export interface DocumentedStub {
  /** Base URL, ending in `/api` as the hosted one does. */
  readonly baseUrl: string;
  /** The access key it requires. */
  readonly accessKey: string;
  /** The environments it holds (documented shape), by id. */
  readonly environments: Map<string, Record<string, any>>;
  /** Every request seen, as `METHOD path`. */
  readonly requests: string[];
  close(): Promise<void>;
}

const ENVIRONMENT_FIELDS = ["display_name", "slug", "network_configs", "bridge_config"];
const NETWORK_CONFIG_FIELDS = ["network_id", "block_number", "chain_config_overrides", "explorer_config", "accounts"];

/** Starts the stub on a free loopback port. */
export async function startDocumentedStub(): Promise<DocumentedStub> {
  const accessKey = `stub-${randomBytes(8).toString("hex")}`;
  const environments = new Map<string, Record<string, any>>();
  const requests: string[] = [];
  let baseUrl = "";

  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => send(response, 500, errorBody("internal_server_error", String(error))));
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://stub");
    const method = request.method ?? "GET";
    requests.push(`${method} ${url.pathname}`);
    const text = await new Promise<string>((resolve) => {
      let data = "";
      request.on("data", (chunk) => (data += chunk));
      request.on("end", () => resolve(data));
    });
    const body: any = text === "" ? undefined : JSON.parse(text);
    const path = url.pathname.replace(/^\/api/, "");
    const query = [...url.searchParams.keys()];
    const reject = (message: string) => send(response, 400, errorBody("bad_request", message));
    const onlyQuery = (allowed: string[]) => {
      const unknown = query.filter((q) => !allowed.includes(q));
      return unknown.length === 0 ? true : (reject(`unknown query parameter(s): ${unknown.join(", ")}`), false);
    };
    const onlyFields = (value: unknown, allowed: string[], where: string) => {
      if (value === undefined) return true;
      if (typeof value !== "object" || value === null || Array.isArray(value)) return (reject(`${where} must be an object`), false);
      const unknown = Object.keys(value).filter((k) => !allowed.includes(k));
      return unknown.length === 0 ? true : (reject(`unknown field(s) in ${where}: ${unknown.join(", ")}`), false);
    };

    if (path === "/v1/supported-networks" && method === "GET") return void (onlyQuery([]) && send(response, 200, SUPPORTED_NETWORKS));
    if (request.headers["x-access-key"] !== accessKey) return send(response, 401, errorBody("unauthorized", "Invalid access key"));

    if (/^\/v1\/account\/[^/]+\/projects$/.test(path) && method === "GET")
      return void (onlyQuery([]) && send(response, 200, { projects: [PROJECT] }));
    if (/^\/v1\/account\/[^/]+\/delivery-channels$/.test(path) && method === "GET")
      return void (onlyQuery([]) && send(response, 200, { delivery_channels: [DELIVERY_CHANNEL] }));
    if (/^\/v1\/account\/[^/]+\/project\/[^/]+\/actions\/action\/[^/]+\/stop$/.test(path) && method === "POST") {
      if (body !== undefined) return reject("this endpoint takes no body");
      // The docs show no body; an action named "plain-text" answers with a non-JSON one, which is a success too.
      if (path.endsWith("/plain-text/stop")) return void response.writeHead(200, { "content-type": "text/plain" }).end("Action stopped");
      return send(response, 200, undefined);
    }
    if (/^\/v1\/account\/[^/]+\/project\/[^/]+\/simulate$/.test(path) && method === "POST") {
      const allowed = [
        "network_id",
        "block_number",
        "transaction_index",
        "from",
        "input",
        "to",
        "gas",
        "gas_price",
        "value",
        "access_list",
        "generate_access_list",
        "save",
        "block_header",
      ];
      return void (onlyFields(body, allowed, "the body") && send(response, 200, PROJECT_SIMULATION));
    }
    // Ignores page and perPage, as a list that does not paginate would: a client must still stop.
    if (/^\/v1\/account\/[^/]+\/project\/[^/]+\/simulations$/.test(path) && method === "GET")
      return void (onlyQuery(["page", "perPage"]) && send(response, 200, SIMULATIONS));
    if (/^\/v1\/account\/[^/]+\/project\/[^/]+\/vnets\/[^/]+\/transactions\/simulate$/.test(path) && method === "POST") {
      return void (
        onlyFields(body, ["callArgs", "blockNumber", "blockOverrides", "stateOverrides"], "the body") &&
        send(response, 200, VNET_SIMULATION)
      );
    }

    const envs = /^\/public\/v1\/account\/[^/]+\/project\/[^/]+\/environments(?:\/([^/]+)(.*))?$/.exec(path);
    if (!envs) return send(response, 404, errorBody("resource_not_found", `no route ${method} ${path}`));
    const [, environmentId, rest] = envs;
    if (environmentId === undefined) {
      if (method === "GET") {
        if (!onlyQuery(["page", "perPage"])) return;
        const page = Number(url.searchParams.get("page") ?? 1);
        const perPage = Number(url.searchParams.get("perPage") ?? 20);
        const all = [...environments.values()].reverse();
        return send(response, 200, all.slice((page - 1) * perPage, page * perPage));
      }
      if (method === "POST") return createEnvironment(body, response, reject, onlyFields);
      if (method === "DELETE") {
        if (!onlyFields(body, ["environment_ids"], "the body")) return;
        const ids: string[] = body?.environment_ids ?? [];
        const missing = ids.filter((id) => !environments.has(id));
        for (const id of ids) environments.delete(id);
        return missing.length > 0
          ? send(response, 404, errorBody("resource_not_found", "Some environments were not found"))
          : send(response, 204, undefined);
      }
    }
    const environment = environments.get(environmentId ?? "");
    if (!environment) return send(response, 404, errorBody("resource_not_found", "Environment not found"));
    if (rest === "" && method === "GET") return send(response, 200, environment);
    if (rest === "" && method === "DELETE") {
      environments.delete(environment.id);
      return send(response, 204, undefined);
    }
    const vnetId = environment.active_instance.vnets[0].id;
    if (/^\/instance\/[^/]+\/transactions$/.test(rest!) && method === "GET") {
      return void (
        onlyQuery(["page", "perPage", "status", "category", "kind", "from", "to"]) && send(response, 200, [transactionRecord(vnetId)])
      );
    }
    if (/^\/instance\/[^/]+\/transactions\/0x[0-9a-f]{64}$/.test(rest!) && method === "GET")
      return send(response, 200, transactionRecord(vnetId));
    if (/^\/instance\/[^/]+\/vnet\/[^/]+\/transactions$/.test(rest!) && method === "POST") {
      return void (
        onlyFields(body, ["callArgs", "blockOverrides", "stateOverrides"], "the body") && send(response, 200, transactionRecord(vnetId))
      );
    }
    if (/^\/instance\/[^/]+\/vnet\/[^/]+\/transactions\/simulate$/.test(rest!) && method === "POST") {
      return void (
        onlyFields(body, ["callArgs", "blockNumber", "blockOverrides", "stateOverrides"], "the body") &&
        send(response, 200, { ...VNET_SIMULATION, metadata: { id: randomUUID() }, assetChanges: [], balanceChanges: [], stateChanges: [] })
      );
    }
    return send(response, 404, errorBody("resource_not_found", `no route ${method} ${path}`));
  }

  function createEnvironment(
    body: any,
    response: ServerResponse,
    reject: (message: string) => void,
    onlyFields: (value: unknown, allowed: string[], where: string) => boolean,
  ): void {
    if (!onlyFields(body, ENVIRONMENT_FIELDS, "the body")) return;
    const configs: any[] = body?.network_configs ?? [];
    for (const [i, config] of configs.entries()) {
      if (!onlyFields(config, NETWORK_CONFIG_FIELDS, `network_configs[${i}]`)) return;
      if (!onlyFields(config.chain_config_overrides, ["chain_id"], `network_configs[${i}].chain_config_overrides`)) return;
      if (!onlyFields(config.explorer_config, ["enabled", "verification_visibility"], `network_configs[${i}].explorer_config`)) return;
      for (const [j, account] of (config.accounts ?? []).entries())
        if (!onlyFields(account, ["address", "balance"], `network_configs[${i}].accounts[${j}]`)) return;
    }
    if (!onlyFields(body?.bridge_config, ["enabled", "relay_mode", "delay_seconds"], "bridge_config")) return;
    if (typeof body?.display_name !== "string" || configs.length === 0) return reject("display_name and network_configs are required");
    const slug: string =
      body.slug ??
      body.display_name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-|-$/g, "");
    // The conflict answer carries no error.data: a client must not need our `field`.
    if ([...environments.values()].some((e) => e.slug === slug)) return reject("Environment with this slug already exists");
    const id = randomUUID();
    const environment = {
      id,
      display_name: body.display_name,
      slug,
      created_at: new Date().toISOString(),
      networks: configs.map((c) => ({
        id: randomUUID(),
        network_id: c.network_id,
        network_name: SUPPORTED_NETWORKS.find((n) => n.chain_id === c.network_id)?.network_name ?? c.network_id,
        block_number: c.block_number ?? "0x1220b5c",
      })),
      active_instance: {
        id: randomUUID(),
        vnets: configs.map((c) => {
          const vnetId = randomUUID();
          const secret = randomBytes(16).toString("hex");
          return {
            id: vnetId,
            display_name: `${body.display_name} ${c.network_id}`,
            slug: `${slug}-${c.network_id}`,
            status: "running",
            rpcs: [
              { name: "Admin RPC", url: `https://virtual.example/rpc/${secret}` },
              { name: "Public RPC", url: `https://virtual.example/rpc/public/${vnetId}` },
              { name: "Admin websocket RPC", url: `wss://virtual.example/ws/${secret}` },
              { name: "Public websocket RPC", url: `wss://virtual.example/ws/public/${vnetId}` },
            ],
            fork_config: { network_id: Number(c.network_id), block_number: c.block_number ?? "0x1220b5c" },
          };
        }),
      },
    };
    environments.set(id, environment);
    send(response, 200, environment);
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  return {
    baseUrl,
    accessKey,
    environments,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function errorBody(slug: string, message: string) {
  return { error: { id: randomUUID(), slug, message } };
}

function send(response: ServerResponse, status: number, body: unknown): void {
  if (body === undefined) {
    response.writeHead(status).end();
    return;
  }
  const text = JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) }).end(text);
}
