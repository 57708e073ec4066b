/**
 * Contract tests (issue 15): the client and the provider against a strict stub that answers only with the hosted
 * service's documented shapes (test/helpers/documented-stub.ts) and rejects unknown request fields. Every endpoint
 * the client calls parses without a crash and without losing a documented field; the provider's state mapping,
 * import, drift detection and both environment data sources work through real terraform.
 */
import { createClient, parseTransaction, type Client } from "../lib/client";
import { PROVIDER_BLOCK, acceptance, type Acceptance } from "./helpers/acceptance";
import {
  DELIVERY_CHANNEL,
  PROJECT,
  PROJECT_SIMULATION,
  SIMULATIONS,
  SUPPORTED_NETWORKS,
  VNET_SIMULATION,
  startDocumentedStub,
  transactionRecord,
  type DocumentedStub,
} from "./helpers/documented-stub";

let stub: DocumentedStub;
let client: Client;
beforeAll(async () => {
  stub = await startDocumentedStub();
  client = createClient({
    baseUrl: stub.baseUrl,
    accessKey: stub.accessKey,
    accountSlug: "acme",
    projectSlug: "demo",
    retryBaseDelayMs: 1,
  });
});
afterAll(async () => {
  await client?.close();
  await stub?.close();
});

describe("the client against the documented shapes", () => {
  test("projects, delivery channels, supported networks: every documented field kept", async () => {
    expect(await client.listProjects()).toEqual([PROJECT]);
    expect(await client.listDeliveryChannels()).toEqual([DELIVERY_CHANNEL]);
    expect(await client.listSupportedNetworks()).toEqual(SUPPORTED_NETWORKS);
  });

  test("stopping a Web3 Action succeeds on a 200 without a body", async () => {
    await expect(client.stopAction({ actionId: "a1" })).resolves.toEqual({ id: "a1", name: null, status: "stopped" });
    await expect(client.stopAction({ actionId: "plain-text" })).resolves.toEqual({ id: "plain-text", name: null, status: "stopped" });
  });

  test("project simulate keeps transaction (logs, call trace) and contracts; a list that ignores page still ends", async () => {
    const result = await client.simulateTransaction({
      network_id: "1",
      from: "0x0000000000000000000000000000000000000001",
      to: "0x0000000000000000000000000000000000000002",
      save: true,
    });
    expect(result).toEqual(PROJECT_SIMULATION);
    expect(result.transaction?.transaction_info?.call_trace).toBeDefined();
    expect(await client.listSimulations()).toEqual(SIMULATIONS.simulations);
    const all = [];
    for await (const simulation of client.iterateSimulations({ perPage: 1 })) all.push(simulation);
    expect(all).toEqual(SIMULATIONS.simulations);
  });

  test("vnet simulate", async () => {
    await expect(
      client.simulateVnetTransaction({
        vnetId: "8c0b1d2e-3f4a-4b5c-8d6e-7f8091a2b3c4",
        callArgs: { from: "0x0000000000000000000000000000000000000001" },
      }),
    ).resolves.toEqual(VNET_SIMULATION);
  });

  test("environments: create, get, list, by slug, transactions, conflict, ensure, delete and batch delete", async () => {
    const created = await client.createEnvironment({
      display_name: "Contract",
      network_configs: [
        {
          network_id: "1",
          chain_config_overrides: { chain_id: "9007199254740993" },
          accounts: [{ address: "0x0000000000000000000000000000000000000001", balance: "0x1" }],
        },
        { network_id: "8453" },
      ],
      bridge_config: { enabled: true },
    });
    expect(created).toEqual(stub.environments.get(created.id));
    expect(await client.getEnvironment({ environmentId: created.id })).toEqual(created);
    expect(await client.listEnvironments()).toEqual([created]);
    expect(await client.getEnvironmentBySlug({ slug: "contract" })).toEqual(created);
    // The WebSocket entries are documented rpcs too: kept as they came.
    expect(created.active_instance.vnets[0]!.rpcs.map((r) => r.name)).toEqual([
      "Admin RPC",
      "Public RPC",
      "Admin websocket RPC",
      "Public websocket RPC",
    ]);

    const instance = { environmentId: created.id, instanceId: created.active_instance.id };
    const vnetId = created.active_instance.vnets[0]!.id;
    const record = transactionRecord(vnetId);
    await expect(
      client.sendTransaction({ ...instance, vnetId, callArgs: { from: "0x0000000000000000000000000000000000000001" } }),
    ).resolves.toEqual(record);
    await expect(client.getTransaction({ ...instance, txHash: record.tx_hash })).resolves.toEqual(record);
    await expect(client.listTransactions({ ...instance, status: "pending", category: "write", kind: "cheatcode" })).resolves.toEqual([
      record,
    ]);
    const onInstance = await client.simulateInstanceTransaction({
      ...instance,
      vnetId,
      callArgs: { from: "0x0000000000000000000000000000000000000001" },
    });
    expect(onInstance).toMatchObject(VNET_SIMULATION);

    // A taken slug is answered with a 400 that names nothing: the create is not retried as ours, and the
    // conflict is recognized by looking the slug up.
    const again = await client
      .createEnvironment({ display_name: "Contract", slug: "contract", network_configs: [{ network_id: "10" }] })
      .catch((e: unknown) => e);
    expect(again).toMatchObject({ status: 400 });
    const ensured = await client.ensureEnvironment({
      display_name: "Contract",
      network_configs: [{ network_id: "1" }, { network_id: "8453" }],
    });
    expect(ensured).toMatchObject({ created: false, differences: [] });
    expect(ensured.environment.id).toBe(created.id);

    const other = await client.createEnvironment({ display_name: "Other", network_configs: [{ network_id: "1" }] });
    // Batch delete with a missing id: a 404 without missing_ids is resolved one by one; the answer does not say
    // which ids the batch itself deleted, so both count as gone without this call confirming it.
    const missing = "00000000-0000-4000-8000-000000000000";
    await expect(client.deleteEnvironments({ environmentIds: [other.id, missing] })).resolves.toMatchObject({
      requested: 2,
      deleted: 0,
      alreadyMissing: 2,
    });
    expect(stub.environments.has(other.id)).toBe(false);
    await expect(client.deleteEnvironment({ environmentId: created.id })).resolves.toEqual({ deleted: true });
    expect(stub.environments.size).toBe(0);
  });

  test("a send whose answer has an unexpected shape does not fail after the transaction ran", async () => {
    expect(parseTransaction({ something: "else" })).toEqual({ something: "else", tx_hash: null, status: "unknown" });
    expect(parseTransaction("ok")).toEqual({ tx_hash: null, status: "unknown" });
  });
});

describe("the provider against the documented shapes, through terraform", () => {
  let run: Acceptance;
  afterAll(async () => {
    await run?.tf.run("destroy", "-auto-approve", "-input=false");
    run?.dispose();
  }, 60_000);

  const config = (displayName = "Stub env") => `${PROVIDER_BLOCK}
provider "chainform" {}

resource "chainform_environment" "stub" {
  display_name = "${displayName}"
  slug         = "stub-env"

  network_config {
    network_id = "1"
    chain_id   = "9007199254740993"
    account {
      address = "0x0000000000000000000000000000000000000001"
      balance = "1ether"
    }
  }

  network_config {
    network_id = "8453"
  }

  bridge {
    enabled = true
  }
}

data "chainform_environment" "by_slug" {
  slug       = "stub-env"
  depends_on = [chainform_environment.stub]
}

data "chainform_environments" "all" {
  depends_on = [chainform_environment.stub]
}

output "vnets" {
  value = [for v in chainform_environment.stub.vnets : { network_id = v.network_id, chain_id = v.chain_id, bridge = v.bridge_address }]
}

output "data_slug" {
  value = data.chainform_environment.by_slug.id
}

output "listed" {
  value = [for e in data.chainform_environments.all.environments : e.slug]
}

output "data_public" {
  value = data.chainform_environment.by_slug.public_rpc_urls
}
`;

  test("create, empty plan, both data sources, import, drift, destroy", async () => {
    run = await acceptance({
      env: { CHAINFORM_BASE_URL: stub.baseUrl, CHAINFORM_ACCESS_KEY: stub.accessKey, CHAINFORM_ACCOUNT: "acme", CHAINFORM_PROJECT: "demo" },
    });
    let id = "";
    await run.steps([
      {
        name: "create (no crash on the documented Environment)",
        config: config(),
        command: "apply",
        async check(ctx) {
          const env = await ctx.resource("chainform_environment.stub");
          id = env.id as string;
          expect(env.network_config).toEqual([
            {
              network_id: "1",
              block_number: "0x1220b5c",
              chain_id: "9007199254740993",
              explorer: [],
              account: [{ address: "0x0000000000000000000000000000000000000001", balance: "1ether" }],
            },
            { network_id: "8453", block_number: "0x1220b5c", chain_id: null, explorer: [], account: [] },
          ]);
          const outputs = await ctx.outputs();
          // Chain ids exact above 2^53; the bridge address from what the provider knows.
          expect(outputs.vnets!.value).toEqual([
            { network_id: "1", chain_id: "9007199254740993", bridge: "0x00000000000000000000000000000000c4a1b71d" },
            { network_id: "8453", chain_id: "8453", bridge: "0x00000000000000000000000000000000c4a1b71d" },
          ]);
          expect(outputs.data_slug!.value).toBe(id);
          expect(outputs.listed!.value).toEqual(["stub-env"]);
          expect(Object.keys(outputs.data_public!.value as object).sort()).toEqual(["1", "8453"]);
        },
      },
      { name: "plan is empty", command: "plan", expectNoChanges: true },
      { name: "import by slug", resource: "chainform_environment.stub", importId: "stub-env" },
      {
        name: "after import: settings the answer does not show come from the configuration, in place",
        command: "plan",
        check(_ctx, result) {
          const change = result.plan?.resource_changes?.find((c) => c.address === "chainform_environment.stub")?.change;
          expect(change?.actions).toEqual(["update"]);
        },
      },
      { name: "apply the import's update", command: "apply" },
      { name: "plan is empty after import", command: "plan", expectNoChanges: true },
      {
        name: "drift in a documented field (display name changed out of band) plans a replacement",
        before: () => void (stub.environments.get(id)!.display_name = "Renamed elsewhere"),
        command: "plan",
        check(_ctx, result) {
          const change = result.plan?.resource_changes?.find((c) => c.address === "chainform_environment.stub")?.change;
          expect(change?.actions).toEqual(["delete", "create"]);
        },
      },
      {
        name: "deleted out of band: plan re-creates",
        before: () => void stub.environments.delete(id),
        command: "plan",
        check(_ctx, result) {
          const change = result.plan?.resource_changes?.find((c) => c.address === "chainform_environment.stub")?.change;
          expect(change?.actions).toEqual(["create"]);
        },
      },
      { name: "apply re-creates it", command: "apply" },
      { name: "destroy", command: "destroy", check: () => expect(stub.environments.size).toBe(0) },
    ]);
  }, 240_000);
});
