import "cdktf/lib/testing/adapters/jest"; // the matchers' types
import { App, TerraformOutput, TerraformStack, TerraformVariable, Testing, Token } from "cdktf";
import { ether } from "./wei";
import { Bridge } from "./bridge";
import { Environment, type EnvironmentProps } from "./environment";
import * as dataEnvironment from "./generated/data-chainform-environment";
import * as environment from "./generated/environment";
import { Network } from "./network";
import { ChainformProvider } from "./provider";

Testing.setupJest();

const ALICE = "0x1111111111111111111111111111111111111111";
const BOB = "0x2222222222222222222222222222222222222222";

/** A stack with a provider, for tests that build constructs and synth themselves. */
function newStack(): TerraformStack {
  const stack = new TerraformStack(Testing.app(), "stack");
  new ChainformProvider(stack, "chainform");
  return stack;
}

function newEnvironment(props: Partial<EnvironmentProps> = {}): Environment {
  return new Environment(newStack(), "env", {
    displayName: "Test",
    networks: [{ networkId: Network.MAINNET }],
    ...props,
  });
}

type Output = { value: string; sensitive?: boolean };
function outputs(synthesized: string): Record<string, Output> {
  return (JSON.parse(synthesized) as { output: Record<string, Output> }).output;
}

describe("Environment", () => {
  it("synthesizes a chainform_environment with every network, account and the bridge", () => {
    // GIVEN an environment with two networks, a funded account, an explorer and a delayed bridge
    const synthesized = Testing.synthScope((scope) => {
      new ChainformProvider(scope, "chainform");
      new Environment(scope, "pr", {
        displayName: "PR 42",
        slug: "pr-42",
        networks: [
          {
            networkId: Network.MAINNET,
            chainId: 73571,
            blockNumber: 19_000_000,
            accounts: [{ address: ALICE, balance: ether(100) }],
            explorer: { enabled: true, verificationVisibility: "abi" },
          },
          { networkId: Network.BASE, chainId: 84530, blockNumber: "0x10" },
        ],
        bridge: Bridge.delayedRelay(30),
      });
    });

    // THEN the resource carries them in the provider's snake_case schema
    expect(synthesized).toHaveResourceWithProperties(environment.Environment, {
      display_name: "PR 42",
      slug: "pr-42",
      network_config: [
        {
          network_id: "1",
          chain_id: "73571",
          block_number: "19000000",
          account: [{ address: ALICE, balance: "0x56bc75e2d63100000" }],
          explorer: { enabled: true, verification_visibility: "abi" },
        },
        { network_id: "8453", chain_id: "84530", block_number: "0x10" },
      ],
      bridge: { enabled: true, relay_mode: "delayedRelay", delay_seconds: 30 },
    });
  });

  it("wraps the generated resource as its child 'Resource'", () => {
    // GIVEN an environment
    const env = newEnvironment();
    // THEN the L1 is its default child
    expect(env.node.defaultChild).toBe(env.resource);
    expect(env.resource.node.id).toBe("Resource");
    expect(env.resource).toBeInstanceOf(environment.Environment);
  });

  it("normalizes balances to hex wei", () => {
    // GIVEN balances in each accepted form
    const synthesized = Testing.synthScope((scope) => {
      new Environment(scope, "env", {
        displayName: "Balances",
        networks: [
          {
            networkId: Network.MAINNET,
            accounts: [
              { address: ALICE, balance: "100ether" },
              { address: BOB, balance: "1000" },
            ],
          },
          { networkId: Network.BASE, accounts: [{ address: ALICE, balance: "0x00FF" }] },
        ],
      });
    });
    // THEN each is the hex the provider stores
    expect(synthesized).toHaveResourceWithProperties(environment.Environment, {
      network_config: [
        {
          network_id: "1",
          account: [
            { address: ALICE, balance: ether(100) },
            { address: BOB, balance: "0x3e8" },
          ],
        },
        { network_id: "8453", account: [{ address: ALICE, balance: "0xff" }] },
      ],
    });
  });

  it("adds networks after construction", () => {
    // GIVEN an environment with one network
    const stack = newStack();
    const env = new Environment(stack, "env", { displayName: "Grows", networks: [{ networkId: Network.MAINNET }] });
    // WHEN two more are added
    const returned = env.addNetwork({ networkId: Network.BASE, chainId: 84530 }).addNetwork({ networkId: "42161" });
    // THEN all three are synthesized in order
    expect(returned).toBe(env);
    expect(env.networkIds).toEqual(["1", "8453", "42161"]);
    expect(Testing.synth(stack, true)).toHaveResourceWithProperties(environment.Environment, {
      network_config: [{ network_id: "1" }, { network_id: "8453", chain_id: "84530" }, { network_id: "42161" }],
    });
  });

  it("passes slugPrefix and a chain id given as a decimal string (exact above 2^53)", () => {
    // GIVEN an environment replaced with create-before-destroy, and a chain id beyond 2^53
    const stack = newStack();
    new Environment(stack, "env", {
      displayName: "Preview",
      slugPrefix: "pr-",
      networks: [{ networkId: Network.MAINNET, chainId: "9007199254740993" }],
    });
    // THEN both reach the resource as written
    expect(Testing.synth(stack, true)).toHaveResourceWithProperties(environment.Environment, {
      slug_prefix: "pr-",
      network_config: [{ network_id: "1", chain_id: "9007199254740993" }],
    });
    // AND slug with slugPrefix is refused
    expect(
      () => new Environment(newStack(), "env", { displayName: "Both", slug: "x", slugPrefix: "pr-", networks: [{ networkId: "1" }] }),
    ).toThrow(/give slug or slugPrefix, not both/);
  });

  it("passes cloneFrom as clone_from, a token of another environment included", () => {
    // GIVEN an environment cloned from an existing one, looked up by slug
    const stack = newStack();
    const shared = Environment.fromEnvironmentSlug(stack, "shared", "shared");
    new Environment(stack, "bug", { displayName: "Bug 123", cloneFrom: shared.environmentId, networks: [{ networkId: Network.BASE }] });
    // THEN the resource references the source's id
    expect(Testing.synth(stack, true)).toHaveResourceWithProperties(environment.Environment, {
      clone_from: "${data.chainform_environment.shared_6AC20809.id}",
      network_config: [{ network_id: "8453" }],
    });
  });

  it("starts with no networks and gets them from addNetwork", () => {
    // GIVEN an environment without networks
    const stack = newStack();
    const env = new Environment(stack, "env", { displayName: "Later" });
    // WHEN a network is added before synth
    env.addNetwork({ networkId: Network.POLYGON });
    // THEN synth (with validations) passes
    expect(Testing.synth(stack, true)).toHaveResourceWithProperties(environment.Environment, {
      network_config: [{ network_id: "137" }],
    });
  });

  it("gives RPC URLs as tokens looking up the maps by network id", () => {
    // GIVEN an environment and outputs of its RPC URLs
    const stack = newStack();
    const env = new Environment(stack, "env", { displayName: "Urls", networks: [{ networkId: Network.MAINNET }] });
    new TerraformOutput(stack, "public", { value: env.publicRpcUrl(Network.MAINNET) });
    new TerraformOutput(stack, "admin", { value: env.adminRpcUrl(Network.MAINNET), sensitive: true });
    // THEN they are unresolved until Terraform runs, and reference the maps
    expect(Token.isUnresolved(env.publicRpcUrl(Network.MAINNET))).toBe(true);
    const out = outputs(Testing.synth(stack, true));
    expect(out.public.value).toMatch(/^\$\{chainform_environment\.env_[A-Za-z0-9]+\.public_rpc_urls\["1"\]\}$/);
    expect(out.admin).toEqual({ value: expect.stringMatching(/\.admin_rpc_urls\["1"\]\}$/), sensitive: true });
  });

  it("gives every attribute of a network's Virtual Environment", () => {
    // GIVEN outputs of vnet(BASE)
    const stack = newStack();
    const env = new Environment(stack, "env", {
      displayName: "Vnets",
      networks: [{ networkId: Network.MAINNET }, { networkId: Network.BASE }],
    });
    const vnet = env.vnet(Network.BASE);
    for (const [name, value] of Object.entries(vnet)) new TerraformOutput(stack, name, { value, sensitive: name === "adminRpcUrl" });
    // THEN each picks the vnet whose network_id matches, whatever its position in the list
    const out = outputs(Testing.synth(stack, true));
    // (declared non-sensitive: only the Admin RPC URL is a secret)
    const byNetwork =
      /^\$\{nonsensitive\(\{ for key, val in chainform_environment\.env_[A-Za-z0-9]+\.vnets: val\.network_id => val \}\["8453"\]/;
    expect(out.id.value).toMatch(new RegExp(byNetwork.source + /\.id\)\}$/.source));
    expect(out.slug.value).toMatch(new RegExp(byNetwork.source + /\.slug\)\}$/.source));
    expect(out.status.value).toMatch(new RegExp(byNetwork.source + /\.status\)\}$/.source));
    expect(out.chainId.value).toMatch(new RegExp(byNetwork.source + /\.chain_id\)\}$/.source));
    expect(out.publicRpcUrl.value).toMatch(/\.public_rpc_urls\["8453"\]\}$/);
    expect(out.adminRpcUrl.value).toMatch(/\.admin_rpc_urls\["8453"\]\}$/);
  });

  it("exposes id, slug and instance id as tokens", () => {
    const env = newEnvironment();
    expect(Token.isUnresolved(env.environmentId)).toBe(true);
    expect(Token.isUnresolved(env.environmentSlug)).toBe(true);
    expect(Token.isUnresolved(env.instanceId)).toBe(true);
  });

  it("uses the provider it is given", () => {
    // GIVEN an aliased provider configuration
    const synthesized = Testing.synthScope((scope) => {
      new ChainformProvider(scope, "default");
      const staging = new ChainformProvider(scope, "staging", { alias: "staging", projectSlug: "staging" });
      new Environment(scope, "env", { displayName: "Aliased", networks: [{ networkId: "1" }], provider: staging });
    });
    // THEN the resource names it
    expect(synthesized).toHaveResourceWithProperties(environment.Environment, { provider: "chainform.staging" });
  });

  it("takes a block number as a number, a decimal string or hex, and passes it on as written", () => {
    // GIVEN the same kind of block in the three spellings a user may have at hand
    const synthesized = Testing.synthScope((scope) => {
      new ChainformProvider(scope, "chainform");
      new Environment(scope, "blocks", {
        displayName: "Blocks",
        networks: [
          { networkId: Network.MAINNET, blockNumber: 21_400_000 },
          { networkId: Network.BASE, blockNumber: "21400000" },
          { networkId: Network.ARBITRUM, blockNumber: "0x14689c0" },
        ],
      });
    });
    // THEN none is rejected, and the provider gets them as written (it sends hex to the service)
    expect(synthesized).toHaveResourceWithProperties(environment.Environment, {
      network_config: [
        { network_id: "1", block_number: "21400000" },
        { network_id: "8453", block_number: "21400000" },
        { network_id: "42161", block_number: "0x14689c0" },
      ],
    });
  });

  it("accepts addresses in lowercase, uppercase and with a valid EIP-55 checksum", () => {
    // GIVEN one account spelled each way
    const accounts = [
      "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed",
      "0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED",
      "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    ];
    // THEN each builds
    for (const address of accounts)
      expect(() => newEnvironment({ networks: [{ networkId: "1", accounts: [{ address, balance: "1" }] }] })).not.toThrow();
  });

  describe("validation", () => {
    it.each<[string, Partial<EnvironmentProps>, RegExp]>([
      ["an empty display name", { displayName: " " }, /\[stack\/env\] displayName must be 1 to 255 characters/],
      ["a bad slug", { slug: "PR 42" }, /\[stack\/env\] slug "PR 42" is not a slug: use lowercase letters/],
      [
        "a network name",
        { networks: [{ networkId: "mainnet" }] },
        /networks\[0\]: networkId "mainnet" is not a network id: did you mean Network\.MAINNET \("1"\)\?/,
      ],
      [
        "a mistyped network name",
        { networks: [{ networkId: "1" }, { networkId: "arbitrm" }] },
        /networks\[1\]: networkId "arbitrm" is not a network id: did you mean Network\.ARBITRUM \("42161"\)\?/,
      ],
      [
        "a mistyped Network constant",
        { networks: [{ networkId: (Network as unknown as Record<string, string>)["BASEE"]! }] },
        /networks\[0\]: networkId is missing \(a mistyped Network constant reads as undefined\): use one of Network\.MAINNET \("1"\), .*Network\.BASE \("8453"\)/,
      ],
      [
        "a name far from every network",
        { networks: [{ networkId: "solana" }] },
        /networkId "solana" is not a network id: use the forked network's chain id as a decimal string, one of Network\.MAINNET/,
      ],
      [
        "a bad chain id",
        { networks: [{ networkId: "1", chainId: -5 }] },
        /networks\[0\]: chainId -5 is not a chain id: use a positive integer/,
      ],
      ["a fractional chain id", { networks: [{ networkId: "1", chainId: 1.5 }] }, /chainId 1.5 is not a chain id/],
      [
        "a bad block number",
        { networks: [{ networkId: "1", blockNumber: "latest" }] },
        /networks\[0\]: blockNumber "latest" is not a block number/,
      ],
      ["a negative block number", { networks: [{ networkId: "1", blockNumber: -1 }] }, /blockNumber -1 is not a block number/],
      [
        "a decimal block number above 2^64-1",
        { networks: [{ networkId: "1", blockNumber: "18446744073709551616" }] },
        /blockNumber "18446744073709551616" is above 2\^64-1/,
      ],
      [
        "a block number with a leading zero",
        { networks: [{ networkId: "1", blockNumber: "0123" }] },
        /blockNumber "0123" is not a block number: use a block number in decimal/,
      ],
      [
        "a mixed-case address with a wrong EIP-55 checksum",
        { networks: [{ networkId: "1", accounts: [{ address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD", balance: "1" }] }] },
        /\[stack\/env\] networks\[0\]\.accounts\[0\]: address 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD does not match its EIP-55 checksum/,
      ],
      [
        "a bad address",
        { networks: [{ networkId: "1", accounts: [{ address: "0x1234", balance: "1" }] }] },
        /\[stack\/env\] networks\[0\]\.accounts\[0\]: address "0x1234" is not an address: use 0x followed by 40 hex digits/,
      ],
      [
        "a bad balance",
        { networks: [{ networkId: "1", accounts: [{ address: ALICE, balance: "a lot" }] }] },
        /networks\[0\]\.accounts\[0\]: balance "a lot" is not a balance: use ether\(100\)/,
      ],
      [
        "an account listed twice",
        {
          networks: [
            {
              networkId: "1",
              accounts: [
                { address: ALICE, balance: "1" },
                { address: ALICE.toUpperCase().replace("0X", "0x"), balance: "2" },
              ],
            },
          ],
        },
        /networks\[0\]: account 0x1111111111111111111111111111111111111111 is listed twice/,
      ],
      [
        "a bad explorer visibility",
        { networks: [{ networkId: "1", explorer: { verificationVisibility: "everything" as never } }] },
        /explorer\.verificationVisibility "everything" must be one of "bytecode", "abi", "source"/,
      ],
      [
        "too many accounts",
        {
          networks: [
            {
              networkId: "1",
              accounts: Array.from({ length: 101 }, (_, i) => ({ address: `0x${i.toString(16).padStart(40, "0")}`, balance: "1" })),
            },
          ],
        },
        /101 accounts: a network takes at most 100/,
      ],
      [
        "a duplicate network",
        { networks: [{ networkId: Network.BASE }, { networkId: Network.MAINNET }, { networkId: Network.BASE }] },
        /\[stack\/env\] network "8453" is configured twice: .*merge the two configurations/,
      ],
      [
        "too many networks",
        { networks: Array.from({ length: 17 }, (_, i) => ({ networkId: String(i + 1) })) },
        /17 networks: an environment takes at most 16/,
      ],
      [
        "a delay without delayed relay",
        { bridge: { relayMode: "autoRelay", delaySeconds: 30 } },
        /bridge\.delaySeconds needs relayMode "delayedRelay" \(relayMode is "autoRelay"\): use Bridge\.delayedRelay\(30\)/,
      ],
      ["a delay with the default relay mode", { bridge: { delaySeconds: 5 } }, /bridge\.delaySeconds needs relayMode "delayedRelay"/],
      [
        "a negative delay",
        { bridge: Bridge.delayedRelay(-1) },
        /bridge\.delaySeconds -1 must be a whole number of seconds from 0 to 86400/,
      ],
      ["a delay over a day", { bridge: Bridge.delayedRelay(86_401) }, /bridge\.delaySeconds 86401 must be a whole number/],
      [
        "a bad relay mode",
        { bridge: { relayMode: "eventually" as never } },
        /bridge\.relayMode "eventually" must be one of "autoRelay", "delayedRelay"/,
      ],
    ])("rejects %s at construction", (_name, props, message) => {
      // GIVEN props with one mistake
      // WHEN the environment is constructed
      // THEN it throws naming the construct path and the fix
      expect(() => newEnvironment(props)).toThrow(message);
    });

    it("reports every problem at once", () => {
      expect(() => newEnvironment({ displayName: "", networks: [{ networkId: "x", accounts: [{ address: "y", balance: "z" }] }] })).toThrow(
        /displayName[\s\S]*networkId "x"[\s\S]*address "y"[\s\S]*balance "z"/,
      );
    });

    it("rejects a network added twice", () => {
      // GIVEN an environment forking mainnet
      const env = newEnvironment({ networks: [{ networkId: Network.MAINNET }] });
      // WHEN mainnet is added again
      // THEN addNetwork throws, and the environment keeps one mainnet
      expect(() => env.addNetwork({ networkId: Network.MAINNET })).toThrow(/\[stack\/env\] network "1" is configured twice/);
      expect(env.networkIds).toEqual(["1"]);
    });

    it("rejects a bad network given to addNetwork", () => {
      const env = newEnvironment();
      expect(() => env.addNetwork({ networkId: "8453", accounts: [{ address: ALICE, balance: "-1" }] })).toThrow(
        /\[stack\/env\] addNetwork\("8453"\)\.accounts\[0\]: balance "-1" is not a balance/,
      );
    });

    it("rejects an environment left without networks at synth", () => {
      // GIVEN an environment no network was ever added to
      const stack = newStack();
      new Environment(stack, "env", { displayName: "Empty" });
      // WHEN synthesized with validations
      // THEN synth fails naming the path and what to do
      expect(() => Testing.synth(stack, true)).toThrow(
        /\[stack\/env\] the environment has no networks: give `networks` or call addNetwork/,
      );
    });

    it("rejects at synth an RPC URL of a network the environment does not fork", () => {
      // GIVEN an output of a network that is never added
      const stack = newStack();
      const env = new Environment(stack, "env", { displayName: "Missing", networks: [{ networkId: "1" }] });
      new TerraformOutput(stack, "base", { value: env.publicRpcUrl(Network.BASE) });
      // THEN synth fails
      expect(() => Testing.synth(stack, true)).toThrow(
        /\[stack\/env\] an RPC URL of network "8453" is used, but the environment does not fork it/,
      );
    });

    it("accepts an RPC URL asked for before its network is added", () => {
      const stack = newStack();
      const env = new Environment(stack, "env", { displayName: "Order", networks: [{ networkId: "1" }] });
      new TerraformOutput(stack, "base", { value: env.publicRpcUrl(Network.BASE) });
      env.addNetwork({ networkId: Network.BASE });
      expect(() => Testing.synth(stack, true)).not.toThrow();
    });
  });

  describe("tokens", () => {
    it("passes unresolved values through unvalidated", () => {
      // GIVEN variables for every validated value
      const stack = newStack();
      const str = (name: string) => new TerraformVariable(stack, name, { type: "string" }).stringValue;
      const num = (name: string) => new TerraformVariable(stack, name, { type: "number" }).numberValue;
      const networkId = str("network_id");
      // WHEN they are used where literals would be checked
      const env = new Environment(stack, "env", {
        displayName: str("display_name"),
        slug: str("slug"),
        networks: [
          {
            networkId,
            chainId: num("chain_id"),
            blockNumber: num("block_number"),
            accounts: [{ address: str("address"), balance: str("balance") }],
          },
          { networkId: str("other_network_id") },
        ],
        bridge: { relayMode: "delayedRelay", delaySeconds: num("delay") },
      });
      env.addNetwork({ networkId: str("third_network_id") });
      new TerraformOutput(stack, "rpc", { value: env.publicRpcUrl(networkId) });
      // THEN nothing throws and the references reach Terraform untouched
      const synthesized = Testing.synth(stack, true);
      expect(outputs(synthesized).rpc.value).toMatch(/\.public_rpc_urls\[var\.network_id\]\}$/);
      expect(synthesized).toHaveResourceWithProperties(environment.Environment, {
        display_name: "${var.display_name}",
        slug: "${var.slug}",
        network_config: [
          {
            network_id: "${var.network_id}",
            chain_id: "${var.chain_id}",
            block_number: "${var.block_number}",
            account: [{ address: "${var.address}", balance: "${var.balance}" }],
          },
          { network_id: "${var.other_network_id}" },
          { network_id: "${var.third_network_id}" },
        ],
        bridge: { relay_mode: "delayedRelay", delay_seconds: "${var.delay}" },
      });
    });

    it("rejects a whole network or account list given as a token, which Terraform JSON cannot take as blocks", () => {
      // GIVEN list variables
      const stack = newStack();
      const list = new TerraformVariable(stack, "list", { type: "list(any)" }).listValue;
      // WHEN used as the lists of blocks
      // THEN construction says how to do it instead
      expect(() => new Environment(stack, "a", { displayName: "A", networks: list as never })).toThrow(
        /\[stack\/a\] networks is a token: write the list in the app \(its values may be tokens\), or iterate a variable with TerraformIterator/,
      );
      expect(() => new Environment(stack, "b", { displayName: "B", networks: [{ networkId: "1", accounts: list as never }] })).toThrow(
        /\[stack\/b\] networks\[0\]: accounts is a token/,
      );
    });
  });

  describe("lookups", () => {
    it("reads an existing environment by slug or id with the data source", () => {
      // GIVEN lookups by slug and by id
      const stack = newStack();
      const staging = Environment.fromEnvironmentSlug(stack, "staging", "staging");
      const shared = Environment.fromEnvironmentId(stack, "shared", "3f6c0c43-0000-4000-8000-000000000000");
      new TerraformOutput(stack, "staging_rpc", { value: staging.publicRpcUrl(Network.MAINNET) });
      new TerraformOutput(stack, "shared_admin", { value: shared.adminRpcUrl(Network.BASE), sensitive: true });
      new TerraformOutput(stack, "shared_chain", { value: shared.vnet(Network.BASE).chainId });
      new TerraformOutput(stack, "ids", { value: [staging.environmentId, staging.environmentSlug, staging.instanceId] });
      // THEN each is a chainform_environment data source and the tokens reference it
      const synthesized = Testing.synth(stack, true);
      expect(synthesized).toHaveDataSourceWithProperties(dataEnvironment.DataChainformEnvironment, { slug: "staging" });
      expect(synthesized).toHaveDataSourceWithProperties(dataEnvironment.DataChainformEnvironment, {
        id: "3f6c0c43-0000-4000-8000-000000000000",
      });
      const out = outputs(synthesized);
      expect(out.staging_rpc.value).toMatch(/^\$\{data\.chainform_environment\.staging_[A-Za-z0-9]+\.public_rpc_urls\["1"\]\}$/);
      expect(out.shared_admin.value).toMatch(/^\$\{data\.chainform_environment\.shared_[A-Za-z0-9]+\.admin_rpc_urls\["8453"\]\}$/);
      expect(out.shared_chain.value).toMatch(/vnets: val\.network_id => val \}\["8453"\]\.chain_id\)\}$/);
    });
  });

  it("builds the example of the issue", () => {
    // GIVEN the app from the issue, built in a test app
    const app = Testing.app();
    const stack = new TerraformStack(app, "pull-request");
    new ChainformProvider(stack, "chainform");
    const env = new Environment(stack, "pr", {
      displayName: "PR local",
      slug: "pr-local",
      networks: [
        { networkId: Network.MAINNET, chainId: 73571, accounts: [{ address: ALICE, balance: ether(100) }] },
        { networkId: Network.BASE, chainId: 84530 },
      ],
      bridge: Bridge.delayedRelay(30),
    });
    env.addNetwork({ networkId: Network.ARBITRUM });
    new TerraformOutput(stack, "mainnet_rpc", { value: env.publicRpcUrl(Network.MAINNET) });
    new TerraformOutput(stack, "mainnet_admin_rpc", { value: env.adminRpcUrl(Network.MAINNET), sensitive: true });
    // WHEN synthesized
    const synthesized = Testing.synth(stack, true);
    // THEN the stack has the provider, the environment and both outputs
    expect(synthesized).toHaveProvider({ tfResourceType: "chainform" } as never);
    expect(synthesized).toHaveResourceWithProperties(environment.Environment, {
      display_name: "PR local",
      slug: "pr-local",
      network_config: [
        { network_id: "1", chain_id: "73571", account: [{ address: ALICE, balance: ether(100) }] },
        { network_id: "8453", chain_id: "84530" },
        { network_id: "42161" },
      ],
      bridge: { enabled: true, relay_mode: "delayedRelay", delay_seconds: 30 },
    });
    expect(Object.keys(outputs(synthesized)).sort()).toEqual(["mainnet_admin_rpc", "mainnet_rpc"]);
    expect(app).toBeInstanceOf(App);
  });
});
