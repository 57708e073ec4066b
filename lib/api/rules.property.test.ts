/**
 * Property-based test of lib/domain's domain rules (fast-check): the service's validation (schema and create plan),
 * the provider's validation (schema validators and the resource's validate) and the constructs' rules accept and
 * reject exactly the same environments, and canonical forms round-trip.
 */
import fc from "fast-check";
import { App, TerraformStack } from "cdktf";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { Environment as EnvironmentConstruct } from "../constructs/environment";
import { ChainformProvider } from "../constructs/provider";
import { Diagnostics } from "../terraform/framework/diagnostics";
import { cty } from "../terraform/protocol/cty/type";
import { validateConfig } from "../terraform/framework/validate";
import { environment, environmentSchema } from "../terraform/provider/resources/environment";
import { planEnvironment } from "../service/environment-plan/plan";
import { applySeed, DEFAULT_SEED, defaultProject } from "../service/seed";
import { Store } from "../service/store";
import "../service/validation"; // registers the formats the schema check needs
import { checksumAddress } from "../domain/address";
import { canonicalHex, normalizeBalance, parseBalance } from "../domain/amounts";
import { blockNumberHex, MAX_BLOCK_NUMBER, MAX_CHAIN_ID, parseBlockNumber, parseChainId, sameBlockNumber } from "../domain/chain";
import { CreateEnvironmentRequest } from "./environments";
import { withHexBlockNumbers } from "../client/actions/createEnvironment";

/** One environment as a user writes it, in neutral form; every field may be invalid. */
interface Input {
  networks: { networkId: string; chainId?: bigint; blockNumber?: string; accounts: { address: string; balance: string }[] }[];
  bridge?: { relayMode?: "autoRelay" | "delayedRelay"; delaySeconds?: number };
}

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const chainId = fc.oneof(
  fc.bigInt({ min: 1n, max: 100n }),
  fc.constantFrom(0n, 1n, 10n, 8453n, SAFE, SAFE - 1n),
  fc.bigInt({ min: -5n, max: SAFE }),
);
const hexDigits = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9a-fA-F]{${min},${max}}$`));
const blockNumber = fc.oneof(
  { arbitrary: hexDigits(1, 18).map((d) => `0x${d}`), weight: 3 },
  { arbitrary: fc.bigInt({ min: 0n, max: MAX_BLOCK_NUMBER + 2n }).map(String), weight: 2 },
  fc.constantFrom(
    `0x${MAX_BLOCK_NUMBER.toString(16)}`,
    `0x${(MAX_BLOCK_NUMBER + 1n).toString(16)}`,
    MAX_BLOCK_NUMBER.toString(),
    "0x0000ffffffffffffffff",
    "0x",
    "123",
    "0123",
    "-1",
    "1e6",
    "0xg1",
  ),
);
const address = fc.oneof(
  { arbitrary: hexDigits(40, 40).map((d) => `0x${d}`), weight: 6 },
  { arbitrary: hexDigits(40, 40).map((d) => checksumAddress(`0x${d}`)), weight: 2 },
  fc.constantFrom(
    "0x1234",
    `0x${"a".repeat(41)}`,
    `0X${"b".repeat(40)}`,
    "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD",
  ),
);
const balance = fc.oneof(
  { arbitrary: hexDigits(1, 66).map((d) => `0x${d}`), weight: 3 },
  fc.bigInt({ min: 0n, max: 1n << 257n }).map(String),
  fc
    .tuple(
      fc.nat({ max: 10_000 }),
      fc.option(fc.stringMatching(/^[0-9]{1,20}$/)),
      fc.constantFrom("", " "),
      fc.constantFrom("ether", "eth", "gwei", "wei", "ETHER", "finney", ""),
    )
    .map(([whole, fraction, space, unit]) => `${whole}${fraction === null ? "" : `.${fraction}`}${space}${unit}`),
  fc.constantFrom("", "-1", "1e18", "0.5", "ether", "0x"),
);
const input: fc.Arbitrary<Input> = fc.record(
  {
    networks: fc.array(
      fc.record(
        {
          networkId: fc.constantFrom("1", "10", "8453", "137"),
          chainId: chainId,
          blockNumber: blockNumber,
          accounts: fc.array(fc.record({ address, balance }), { maxLength: 2 }),
        },
        { requiredKeys: ["networkId", "accounts"] },
      ),
      { minLength: 1, maxLength: 2 },
    ),
    bridge: fc.record(
      {
        relayMode: fc.constantFrom("autoRelay" as const, "delayedRelay" as const),
        delaySeconds: fc.constantFrom(-1, 0, 5, 86_400, 86_401, 1.5),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: ["networks"] },
);

const store = Store.open({ dataDir: null });
applySeed(store, DEFAULT_SEED);
const projectId = store.projects.bySlug(store.accounts.bySlug(defaultProject(store).account)!.id, defaultProject(store).project)!.id;
const createRequest = TypeCompiler.Compile(CreateEnvironmentRequest);

/**
 * The service: balances are sent normalized and block numbers in hex (every client normalizes first: the client's
 * own withHexBlockNumbers here); then the schema and the plan.
 */
function serviceAccepts(value: Input): boolean {
  let request: unknown;
  try {
    request = {
      display_name: "property",
      network_configs: value.networks.map((n) => ({
        network_id: n.networkId,
        ...(n.chainId !== undefined && { chain_config_overrides: { chain_id: n.chainId.toString() } }),
        ...(n.blockNumber !== undefined && { block_number: n.blockNumber }),
        ...(n.accounts.length > 0 && { accounts: n.accounts.map((a) => ({ address: a.address, balance: normalizeBalance(a.balance) })) }),
      })),
      ...(value.bridge && {
        bridge_config: {
          ...(value.bridge.relayMode && { relay_mode: value.bridge.relayMode }),
          ...(value.bridge.delaySeconds !== undefined && { delay_seconds: value.bridge.delaySeconds }),
        },
      }),
    };
  } catch {
    return false;
  }
  request = withHexBlockNumbers(request as CreateEnvironmentRequest);
  if (!createRequest.Check(request)) return false;
  try {
    planEnvironment(store, projectId, request as CreateEnvironmentRequest);
    return true;
  } catch {
    return false;
  }
}

/** How the provider's schema types `chain_id`: a number, or a decimal string (exact above 2^53). */
const chainIdAttribute = (environmentSchema.blocks.network_config as unknown as { attributes: { chain_id: { type: unknown } } }).attributes
  .chain_id;
const providerChainId = (id: bigint) => (chainIdAttribute.type === cty.string ? id.toString() : Number(id));

/** The provider: the schema's validators and the resource's validate, over the decoded configuration. */
async function providerAccepts(value: Input): Promise<boolean> {
  const config = {
    display_name: "property",
    slug: null,
    id: null,
    created_at: null,
    instance_id: null,
    vnets: null,
    public_rpc_urls: null,
    admin_rpc_urls: null,
    network_config: value.networks.map((n) => ({
      network_id: n.networkId,
      block_number: n.blockNumber ?? null,
      chain_id: n.chainId === undefined ? null : providerChainId(n.chainId),
      explorer: [],
      account: n.accounts.map((a) => ({ address: a.address, balance: a.balance })),
    })),
    bridge: value.bridge
      ? [{ enabled: null, relay_mode: value.bridge.relayMode ?? null, delay_seconds: value.bridge.delaySeconds ?? null }]
      : [],
  };
  const diagnostics = new Diagnostics();
  diagnostics.add(...validateConfig(environmentSchema, config as never));
  await environment.validate?.({ config: config as never, diagnostics } as never);
  return !diagnostics.hasErrors;
}

/** The constructs: the Environment construct's rules run at construction. */
function constructsAccept(value: Input): boolean {
  const stack = new TerraformStack(new App(), "stack");
  new ChainformProvider(stack, "chainform");
  try {
    new EnvironmentConstruct(stack, "env", {
      displayName: "property",
      networks: value.networks.map((n) => ({
        networkId: n.networkId,
        ...(n.chainId !== undefined && { chainId: Number(n.chainId) }),
        ...(n.blockNumber !== undefined && { blockNumber: n.blockNumber }),
        accounts: n.accounts,
      })),
      ...(value.bridge && {
        bridge: {
          ...(value.bridge.relayMode && { relayMode: value.bridge.relayMode }),
          ...(value.bridge.delaySeconds !== undefined && { delaySeconds: value.bridge.delaySeconds }),
        },
      }),
    });
    return true;
  } catch (error) {
    if ((error as Error).name === "ChainformValidationError") return false;
    throw error;
  }
}

afterAll(() => store.close());

test("the service, the provider and the constructs accept and reject exactly the same environments", async () => {
  await fc.assert(
    fc.asyncProperty(input, async (value) => {
      const service = serviceAccepts(value);
      expect({ provider: await providerAccepts(value), constructs: constructsAccept(value) }).toEqual({
        provider: service,
        constructs: service,
      });
    }),
    { numRuns: 300 },
  );
});

test("the generator reaches both sides of the rules, not only one", () => {
  // A fixed sample: how often a random run of 300 is accepted varies (about one in ten), and a bound on a random
  // count would fail now and then for no fault of the rules.
  const verdicts = { accepted: 0, rejected: 0 };
  for (const value of fc.sample(input, { numRuns: 300, seed: 40 })) verdicts[serviceAccepts(value) ? "accepted" : "rejected"] += 1;
  expect(verdicts.accepted).toBeGreaterThan(20);
  expect(verdicts.rejected).toBeGreaterThan(20);
});

test.each([
  ["5gwei balance", { networks: [{ networkId: "1", accounts: [{ address: `0x${"a".repeat(40)}`, balance: "5gwei" }] }] }, true],
  [
    "duplicate chain id",
    {
      networks: [
        { networkId: "1", chainId: 7n, accounts: [] },
        { networkId: "10", chainId: 7n, accounts: [] },
      ],
    },
    false,
  ],
  ["block number past 2^64-1", { networks: [{ networkId: "1", blockNumber: "0x10000000000000000", accounts: [] }] }, false],
  ["decimal block number", { networks: [{ networkId: "1", blockNumber: "21400000", accounts: [] }] }, true],
  ["decimal block number past 2^64-1", { networks: [{ networkId: "1", blockNumber: "18446744073709551616", accounts: [] }] }, false],
  [
    "address with a valid EIP-55 checksum",
    { networks: [{ networkId: "1", accounts: [{ address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", balance: "1" }] }] },
    true,
  ],
  [
    "address with a wrong EIP-55 checksum",
    { networks: [{ networkId: "1", accounts: [{ address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD", balance: "1" }] }] },
    false,
  ],
  ["delay without delayedRelay", { networks: [{ networkId: "1", accounts: [] }], bridge: { delaySeconds: 5 } }, false],
] as [string, Input, boolean][])("the three agree on %s", async (_name, value, expected) => {
  expect({ service: serviceAccepts(value), provider: await providerAccepts(value), constructs: constructsAccept(value) }).toEqual({
    service: expected,
    provider: expected,
    constructs: expected,
  });
});

test("balances: parse and normalize agree, and the canonical hex round-trips", () => {
  fc.assert(
    fc.property(balance, (text) => {
      const parsed = parseBalance(text);
      if ("error" in parsed) {
        expect(() => normalizeBalance(text)).toThrow(RangeError);
        return;
      }
      const canonical = normalizeBalance(text);
      expect(canonical).toBe(`0x${parsed.wei.toString(16)}`);
      expect(normalizeBalance(canonical)).toBe(canonical);
      expect(canonicalHex(canonical)).toBe(canonical);
      expect(parseBalance(canonical)).toEqual(parsed);
    }),
    { numRuns: 500 },
  );
});

test("chain ids and block numbers: exact at any size, within their ranges, and round-trip through text", () => {
  fc.assert(
    fc.property(fc.bigInt({ min: -2n, max: MAX_CHAIN_ID + 2n }), (id) => {
      const parsed = parseChainId(id.toString());
      expect("chainId" in parsed).toBe(id >= 1n && id <= MAX_CHAIN_ID);
      if ("chainId" in parsed) expect(parsed.chainId).toBe(id);
      if ("chainId" in parsed) expect(parseChainId(parsed.chainId.toString())).toEqual(parsed);
    }),
    { numRuns: 500 },
  );
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: MAX_BLOCK_NUMBER + 2n }), fc.nat({ max: 3 }), (n, zeros) => {
      const text = `0x${"0".repeat(zeros)}${n.toString(16)}`;
      const parsed = parseBlockNumber(text);
      expect("blockNumber" in parsed).toBe(n <= MAX_BLOCK_NUMBER);
      if ("blockNumber" in parsed) expect(canonicalHex(text)).toBe(`0x${parsed.blockNumber.toString(16)}`);
      // The decimal spelling is the same block, and the API's hex is canonical.
      expect("blockNumber" in parseBlockNumber(n.toString())).toBe("blockNumber" in parsed);
      if ("blockNumber" in parsed) {
        expect(sameBlockNumber(text, n.toString())).toBe(true);
        expect(blockNumberHex(n.toString())).toBe(canonicalHex(text));
        expect(sameBlockNumber(text, (n + 1n).toString())).toBe(false);
      }
    }),
    { numRuns: 500 },
  );
});
