/**
 * Creating environments through the spec's API (POST .../environments): what an environment is made of, slugs, chain
 * ids, fork points, addresses, every refusal naming its field, access, and concurrent creates. Listing, getting and
 * deleting are ./list-and-delete.test.ts's.
 */
import { startTestService, type TestService } from "../../../../test/helpers/service";
import { call, expectErrorBody } from "../../../../test/helpers/http";
import { chainHostOf } from "../../chain-host";

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const base = "/public/v1/account/acme/project/demo/environments";
const create = (body: unknown, as = "alice", path = base) => call(service, "POST", path, { as, body });
let counter = 0;
const unique = () => `env ${++counter}`;
/** What the service stored for an environment (never returned). */
const storedSettings = (id: string) => {
  const row = service.app.service.store.db.prepare("SELECT network_configs, bridge_config FROM environments WHERE id = ?").get(id) as {
    network_configs: string;
    bridge_config: string;
  };
  return { network_configs: JSON.parse(row.network_configs), bridge_config: JSON.parse(row.bridge_config) };
};

describe("POST environments", () => {
  test("creates a multi-network environment: networks, active_instance vnets with rpcs, fork and chain config", async () => {
    const { status, body } = await create({
      display_name: "Cross Chain Demo",
      network_configs: [
        { network_id: "1", block_number: "0x00AbC" },
        {
          network_id: "8453",
          chain_config_overrides: { chain_id: "84530001" },
          explorer_config: { enabled: true, verification_visibility: "abi" },
          accounts: [{ address: `0x${"AB".repeat(20)}`, balance: "0x0DE0B6B3A7640000" }],
        },
      ],
      bridge_config: { enabled: true, relay_mode: "delayedRelay", delay_seconds: 30 },
    });
    expect(status).toBe(200);
    expect(body.slug).toBe("cross-chain-demo");
    expect(
      body.networks.map((n: { network_id: string; network_name: string; block_number: string }) => [
        n.network_id,
        n.network_name,
        n.block_number,
      ]),
    ).toEqual([
      ["1", "Mainnet", "0xabc"],
      ["8453", "Base", `0x${(24_000_000).toString(16)}`],
    ]);
    const [mainnet, baseVnet] = body.active_instance.vnets;
    expect(mainnet.status).toBe("running");
    expect(mainnet.fork_config).toEqual({ network_id: 1, block_number: "0xabc" });
    // The documented vnet fields only; the chain id override is stored, not returned.
    expect(Object.keys(mainnet).sort()).toEqual(["display_name", "fork_config", "id", "rpcs", "slug", "status"]);
    // ... and, where the explorer is enabled, the optional local extra explorer_url.
    expect(Object.keys(baseVnet).sort()).toEqual(["display_name", "explorer_url", "fork_config", "id", "rpcs", "slug", "status"]);
    expect(baseVnet.explorer_url).toBe(`${service.baseUrl}/explorer/${baseVnet.id}`);
    expect(mainnet.rpcs.map((r: { name: string }) => r.name)).toEqual([
      "Admin RPC",
      "Public RPC",
      "Admin websocket RPC",
      "Public websocket RPC",
    ]);
    expect(mainnet.rpcs[2].url).toBe(mainnet.rpcs[0].url.replace(/^http/, "ws"));
    expect(mainnet.rpcs[3].url).toBe(`${service.baseUrl.replace(/^http/, "ws")}/rpc/public/${mainnet.id}`);
    expect(mainnet.rpcs[0].url).toMatch(new RegExp(`^${service.baseUrl}/rpc/admin/[A-Za-z0-9_-]{43}$`));
    expect(mainnet.rpcs[1].url).toBe(`${service.baseUrl}/rpc/public/${mainnet.id}`);
    // The documented Environment fields only; what it was created with is stored, normalized.
    expect(Object.keys(body).sort()).toEqual(["active_instance", "created_at", "display_name", "id", "networks", "slug"]);
    const stored = storedSettings(body.id);
    expect(stored.network_configs[1].accounts).toEqual([{ address: `0x${"ab".repeat(20)}`, balance: "0xde0b6b3a7640000" }]);
    expect(stored.network_configs[1].chain_config_overrides).toEqual({ chain_id: "84530001" });
    expect(stored.network_configs[0]).toEqual({ network_id: "1", block_number: "0xabc" });
    expect(stored.bridge_config).toEqual({ enabled: true, relay_mode: "delayedRelay", delay_seconds: 30 });
  });

  test("fills bridge defaults and keeps a given slug", async () => {
    const { body } = await create({ display_name: unique(), slug: "given-slug", network_configs: [{ network_id: "10" }] });
    expect(body.slug).toBe("given-slug");
    expect(storedSettings(body.id).bridge_config).toEqual({ enabled: false, relay_mode: "autoRelay", delay_seconds: 0 });
  });

  test("a generated slug is unique: the same display_name without a slug gets -2, -3", async () => {
    const slugs: string[] = [];
    for (let i = 0; i < 3; i++) slugs.push((await create({ display_name: "Same Name", network_configs: [{ network_id: "1" }] })).body.slug);
    expect(slugs).toEqual(["same-name", "same-name-2", "same-name-3"]);
  });

  test("chain ids are exact above 2^53: distinct large ids are not duplicates and are stored as given", async () => {
    const { status, body } = await create({
      display_name: unique(),
      network_configs: [
        { network_id: "1", chain_config_overrides: { chain_id: "9007199254740993" } },
        { network_id: "10", chain_config_overrides: { chain_id: "9007199254740992" } },
        { network_id: "8453", chain_config_overrides: { chain_id: "9223372036854775771" } },
      ],
    });
    expect(status).toBe(200);
    const stored = service.app.service.store.environments.get(
      service.app.service.store.environments.vnet(body.active_instance.vnets[0].id)!.project_id,
      body.id,
    )!;
    expect(stored.vnets.map((v) => v.chain_id)).toEqual(["9007199254740993", "9007199254740992", "9223372036854775771"]);
    expect(chainHostOf(service.app.service.store).resolveVnet(stored.vnets[0].id)!.chainId).toBe(9007199254740993n);
  });

  test("a slug conflict is a 400 naming the slug and the existing environment", async () => {
    const first = await create({ display_name: "Twice", slug: "twice", network_configs: [{ network_id: "1" }] });
    const second = await create({ display_name: "Twice", slug: "twice", network_configs: [{ network_id: "1" }] });
    expectErrorBody(second, 400, "bad_request");
    expect(second.body.error.message).toContain("twice");
    expect(second.body.error.message).toContain(first.body.id);
    expect(second.body.error.data).toMatchObject({ field: "/slug", environment_id: first.body.id });
    // The same slug in another project is fine.
    const elsewhere = await create(
      { display_name: "Twice", network_configs: [{ network_id: "1" }] },
      "alice",
      base.replace("acme/project/demo", "acme/project/secret-sauce"),
    );
    expect(elsewhere.status).toBe(200);
  });

  test.each([
    ["an unknown network", [{ network_id: "999999" }], undefined, "/network_configs/0/network_id"],
    ["a network without virtual_testnet", [{ network_id: "324" }], undefined, "/network_configs/0/network_id"],
    ["a duplicate network", [{ network_id: "1" }, { network_id: "1" }], undefined, "/network_configs/1/network_id"],
    [
      "a duplicate chain id",
      [{ network_id: "1" }, { network_id: "10", chain_config_overrides: { chain_id: "1" } }],
      undefined,
      "/network_configs/1/chain_config_overrides/chain_id",
    ],
    [
      "delay_seconds without delayedRelay",
      [{ network_id: "1" }],
      { relay_mode: "autoRelay", delay_seconds: 5 },
      "/bridge_config/delay_seconds",
    ],
    ["delay_seconds without relay_mode", [{ network_id: "1" }], { delay_seconds: 5 }, "/bridge_config/delay_seconds"],
    ["a negative delay", [{ network_id: "1" }], { relay_mode: "delayedRelay", delay_seconds: -1 }, "/bridge_config/delay_seconds"],
    ["an unknown relay mode", [{ network_id: "1" }], { relay_mode: "instant" }, "/bridge_config/relay_mode"],
    ["a block number with a leading zero", [{ network_id: "1", block_number: "0123" }], undefined, "/network_configs/0/block_number"],
    [
      "a block number that is neither decimal nor hex",
      [{ network_id: "1", block_number: "latest" }],
      undefined,
      "/network_configs/0/block_number",
    ],
    [
      "a decimal block number above 2^64-1",
      [{ network_id: "1", block_number: "18446744073709551616" }],
      undefined,
      "/network_configs/0/block_number",
    ],
    [
      "a mixed-case address with a wrong EIP-55 checksum",
      [{ network_id: "1", accounts: [{ address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD", balance: "0x1" }] }],
      undefined,
      "/network_configs/0/accounts/0/address",
    ],
    [
      "a short address",
      [{ network_id: "1", accounts: [{ address: "0x1234", balance: "0x1" }] }],
      undefined,
      "/network_configs/0/accounts/0/address",
    ],
    [
      "a decimal balance",
      [{ network_id: "1", accounts: [{ address: `0x${"1".repeat(40)}`, balance: "100" }] }],
      undefined,
      "/network_configs/0/accounts/0/balance",
    ],
    [
      "a duplicate account",
      [
        {
          network_id: "1",
          accounts: [
            { address: `0x${"1".repeat(40)}`, balance: "0x1" },
            { address: `0x${"1".repeat(40)}`, balance: "0x2" },
          ],
        },
      ],
      undefined,
      "/network_configs/0/accounts/1/address",
    ],
    [
      "an unknown visibility",
      [{ network_id: "1", explorer_config: { verification_visibility: "everything" } }],
      undefined,
      "/network_configs/0/explorer_config/verification_visibility",
    ],
    ["a numeric network id", [{ network_id: 1 }], undefined, "/network_configs/0/network_id"],
    [
      "a 20-digit chain id",
      [{ network_id: "1", chain_config_overrides: { chain_id: "18446744073709551615" } }],
      undefined,
      "/network_configs/0/chain_config_overrides/chain_id",
    ],
    [
      "a chain id above EIP-2294's bound",
      [{ network_id: "1", chain_config_overrides: { chain_id: "9223372036854775772" } }],
      undefined,
      "/network_configs/0/chain_config_overrides/chain_id",
    ],
    [
      "a block number above 2^64-1",
      [{ network_id: "1", block_number: "0xfffffffffffffffff" }],
      undefined,
      "/network_configs/0/block_number",
    ],
    [
      "a chain id override of 0",
      [{ network_id: "1", chain_config_overrides: { chain_id: "0" } }],
      undefined,
      "/network_configs/0/chain_config_overrides/chain_id",
    ],
    ["no networks", [], undefined, "/network_configs"],
  ])("400 for %s, naming the field", async (_name, networkConfigs, bridgeConfig, field) => {
    const result = await create({
      display_name: unique(),
      network_configs: networkConfigs,
      ...(bridgeConfig && { bridge_config: bridgeConfig }),
    });
    expectErrorBody(result, 400, "bad_request");
    expect(result.body.error.data.field).toBe(field);
  });

  test("an unsupported network's 400 lists the networks that can be forked", async () => {
    const result = await create({ display_name: unique(), network_configs: [{ network_id: "84533" }] });
    expectErrorBody(result, 400, "bad_request");
    expect(result.body.error.message).toMatch(
      /84533 is not a supported network\. Networks with Virtual Environments: 1 \(Mainnet\), .*8453 \(Base\)/,
    );
    expect(result.body.error.message).not.toMatch(/\b324 \(/); // zkSync has no Virtual Environments
  });

  test("a decimal block number is a 400 naming the field (the API takes hex, as the hosted service)", async () => {
    const result = await create({ display_name: unique(), network_configs: [{ network_id: "1", block_number: "21400000" }] });
    expectErrorBody(result, 400, "bad_request");
    expect(result.body.error.data.field).toBe("/network_configs/0/block_number");
  });

  test("a hex block number in any spelling is one fork point, answered in canonical hex", async () => {
    const { status, body } = await create({ display_name: unique(), network_configs: [{ network_id: "1", block_number: "0x014689C0" }] });
    expect(status).toBe(200);
    expect(body.networks[0].block_number).toBe("0x14689c0");
    expect(body.active_instance.vnets[0].fork_config.block_number).toBe("0x14689c0");
    expect(storedSettings(body.id).network_configs[0].block_number).toBe("0x14689c0");
  });

  test("a wrong EIP-55 checksum is a 400 that says so; lowercase, uppercase and valid checksums are accepted", async () => {
    const result = await create({
      display_name: unique(),
      network_configs: [{ network_id: "1", accounts: [{ address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD", balance: "0x1" }] }],
    });
    expectErrorBody(result, 400, "bad_request");
    expect(result.body.error.message).toMatch(
      /network_configs\/0\/accounts\/0\/address: 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD does not match its EIP-55 checksum/,
    );
    const valid = [
      "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed",
      "0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED",
      "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    ];
    const accounts = (address: string) => [{ network_id: "1", accounts: [{ address, balance: "0x1" }] }];
    for (const address of valid) expect((await create({ display_name: unique(), network_configs: accounts(address) })).status).toBe(200);
  });

  test("duplicate messages name both entries, as people write the fields", async () => {
    const twice = await create({ display_name: unique(), network_configs: [{ network_id: "1" }, { network_id: "1" }] });
    expect(twice.body.error.message).toBe("network_configs[1].network_id: network 1 is already network_configs[0]");
    const chain = await create({
      display_name: unique(),
      network_configs: [{ network_id: "1" }, { network_id: "10", chain_config_overrides: { chain_id: "1" } }],
    });
    expect(chain.body.error.message).toBe(
      "network_configs[1].chain_config_overrides.chain_id: chain id 1 is already the chain id of network_configs[0]",
    );
  });

  test("400 when display_name is missing, with the field named", async () => {
    const result = await create({ network_configs: [{ network_id: "1" }] });
    expectErrorBody(result, 400, "bad_request");
    expect(result.body.error.data.field).toBe("/display_name");
    expect(result.body.error.message).toContain("/display_name");
  });

  test("403 for a read-only key, 404 for a project the requester cannot see, 401 without credentials", async () => {
    const body = { display_name: unique(), network_configs: [{ network_id: "1" }] };
    expectErrorBody(await create(body, "bob"), 403, "insufficient_permissions");
    const hidden = await create(body, "outsider");
    expectErrorBody(hidden, 404, "resource_not_found");
    const restricted = await create(body, "alice", base.replace("demo", "no-such-project"));
    expectErrorBody(restricted, 404, "resource_not_found");
    expect(restricted.body.error.data.rid).toBe("rid:project");
    expectErrorBody(await call(service, "POST", base, { body }), 401, "unauthorized");
  });

  test("concurrent creates never lose or duplicate a row: distinct slugs all land, one slug lands once", async () => {
    const project = "/public/v1/account/alice/project/sandbox/environments";
    const distinct = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        create({ display_name: `parallel ${i}`, network_configs: [{ network_id: "1" }, { network_id: "10" }] }, "alice", project),
      ),
    );
    expect(distinct.map((r) => r.status)).toEqual(new Array(25).fill(200));
    const same = await Promise.all(
      Array.from({ length: 10 }, () =>
        create({ display_name: "same one", slug: "same-one", network_configs: [{ network_id: "1" }] }, "alice", project),
      ),
    );
    expect(same.filter((r) => r.status === 200)).toHaveLength(1);
    expect(same.filter((r) => r.status === 400)).toHaveLength(9);
    const generated = await Promise.all(
      Array.from({ length: 5 }, () => create({ display_name: "made up", network_configs: [{ network_id: "1" }] }, "alice", project)),
    );
    expect(generated.map((r) => r.body.slug).sort()).toEqual(["made-up", "made-up-2", "made-up-3", "made-up-4", "made-up-5"]);
    const { db } = service.app.service.store;
    const rows = db
      .prepare(
        "SELECT COUNT(*) AS envs, (SELECT COUNT(*) FROM vnets v JOIN environments e ON e.id = v.environment_id WHERE e.project_id = environments.project_id) AS vnets FROM environments WHERE project_id = (SELECT id FROM projects WHERE slug = 'sandbox')",
      )
      .get();
    expect(rows).toEqual({ envs: 31, vnets: 56 });
  });
});
