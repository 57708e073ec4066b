import { envName, formatOutputs, networkEndpoints, secretTexts, type NetworkEndpoint } from "./outputs-format";
import type { DeployedNetwork } from "./stack-state";

/** A network of a stack's state, as deployedNetworks reads it. */
const deployed = (environment: string, networkId: string, chainId: number): DeployedNetwork => ({
  stack: "ci",
  environment,
  environmentId: `id-${environment}`,
  networkId,
  chainId,
  publicRpcUrl: `http://127.0.0.1:8787/rpc/public/${environment}-${networkId}`,
  adminRpcUrl: `http://127.0.0.1:8787/rpc/admin/SECRET-${environment}-${networkId}`,
  forkBlock: null,
  accounts: [],
});
const networks: NetworkEndpoint[] = networkEndpoints([
  deployed("pr-7", "1", 73571),
  deployed("pr-7", "84532", 845320),
  deployed("pr-7", "999999", 1999999),
]);

const outputs = {
  mainnet_rpc: { value: "http://127.0.0.1:8787/rpc/public/abc", type: "string" },
  chain_ids: { value: { "1": 73571, "8453": 84530 }, type: ["map", "number"] },
  note: { value: 'two\nlines with "quotes" and $HOME', type: "string" },
  mainnet_admin_rpc: { value: "http://127.0.0.1:8787/rpc/admin/SECRET", type: "string", sensitive: true },
};

describe("formatOutputs", () => {
  it("writes JSON name -> value without sensitive outputs by default", () => {
    const parsed = JSON.parse(formatOutputs(outputs, "json"));
    expect(parsed).toEqual({
      chain_ids: { "1": 73571, "8453": 84530 },
      mainnet_rpc: "http://127.0.0.1:8787/rpc/public/abc",
      note: 'two\nlines with "quotes" and $HOME',
    });
    expect(formatOutputs(outputs, "json")).not.toContain("SECRET");
  });

  it("includes sensitive outputs only when asked", () => {
    expect(JSON.parse(formatOutputs(outputs, "json", { includeSensitive: true })).mainnet_admin_rpc).toContain("SECRET");
  });

  it("writes a dotenv file with escaped, one-line values", () => {
    expect(formatOutputs(outputs, "env")).toBe(
      [
        'CHAIN_IDS="{\\"1\\":73571,\\"8453\\":84530}"',
        'MAINNET_RPC="http://127.0.0.1:8787/rpc/public/abc"',
        'NOTE="two\\nlines with \\"quotes\\" and \\$HOME"',
        "",
      ].join("\n"),
    );
  });

  it("writes GITHUB_OUTPUT heredoc blocks that survive multi-line values", () => {
    const text = formatOutputs(outputs, "github", { delimiter: () => "EOF" });
    expect(text).toBe(
      [
        "chain_ids<<EOF",
        '{"1":73571,"8453":84530}',
        "EOF",
        "mainnet_rpc<<EOF",
        "http://127.0.0.1:8787/rpc/public/abc",
        "EOF",
        "note<<EOF",
        'two\nlines with "quotes" and $HOME',
        "EOF",
        "",
      ].join("\n"),
    );
  });

  it("never uses a delimiter that occurs in the value", () => {
    const text = formatOutputs({ tricky: { value: "a\nEOF\nb" } }, "github", { delimiter: () => "EOF" });
    const delimiter = text.split("\n")[0].split("<<")[1];
    expect(delimiter).not.toBe("EOF");
    expect(text.endsWith(`\n${delimiter}\n`)).toBe(true);
    expect(text).toContain("a\nEOF\nb");
  });
});

describe("networks of the state", () => {
  it("names them after the well-known network, else chain_<id>; after the environment too when two fork the same one", () => {
    expect(networks.map((n) => n.name)).toEqual(["mainnet", "base_sepolia", "chain_999999"]);
    const twice = networkEndpoints([
      deployed("pr-7-api", "1", 73571),
      deployed("pr-7-web", "1", 73572),
      deployed("pr-7-web", "8453", 84530),
    ]);
    expect(twice.map((n) => n.name)).toEqual(["pr_7_api_mainnet", "pr_7_web_mainnet", "base"]);
  });

  it("adds a value per network, eth_rpc_url and a JSON of all, to every generic format; the app's own output wins", () => {
    const app = { mainnet_chain_id: { value: "app's own" } };
    const json = JSON.parse(formatOutputs(app, "json", { networks }));
    expect(json).toEqual({
      eth_rpc_url: "http://127.0.0.1:8787/rpc/public/pr-7-1",
      mainnet_rpc_url: "http://127.0.0.1:8787/rpc/public/pr-7-1",
      mainnet_chain_id: "app's own",
      mainnet_network_id: "1",
      mainnet_environment_id: "id-pr-7",
      base_sepolia_rpc_url: "http://127.0.0.1:8787/rpc/public/pr-7-84532",
      base_sepolia_chain_id: 845320,
      base_sepolia_network_id: "84532",
      base_sepolia_environment_id: "id-pr-7",
      chain_999999_rpc_url: "http://127.0.0.1:8787/rpc/public/pr-7-999999",
      chain_999999_chain_id: 1999999,
      chain_999999_network_id: "999999",
      chain_999999_environment_id: "id-pr-7",
      networks: {
        mainnet: {
          network_id: "1",
          chain_id: 73571,
          rpc_url: "http://127.0.0.1:8787/rpc/public/pr-7-1",
          environment_id: "id-pr-7",
          environment_slug: "pr-7",
        },
        base_sepolia: {
          network_id: "84532",
          chain_id: 845320,
          rpc_url: "http://127.0.0.1:8787/rpc/public/pr-7-84532",
          environment_id: "id-pr-7",
          environment_slug: "pr-7",
        },
        chain_999999: {
          network_id: "999999",
          chain_id: 1999999,
          rpc_url: "http://127.0.0.1:8787/rpc/public/pr-7-999999",
          environment_id: "id-pr-7",
          environment_slug: "pr-7",
        },
      },
    });
    expect(JSON.stringify(json)).not.toContain("SECRET");
    expect(formatOutputs({}, "env", { networks })).toContain('ETH_RPC_URL="http://127.0.0.1:8787/rpc/public/pr-7-1"\n');
    expect(formatOutputs({}, "env", { networks })).toContain('BASE_SEPOLIA_CHAIN_ID="845320"\n');
    expect(formatOutputs({}, "env", { networks, includeSensitive: true })).toContain(
      'MAINNET_ADMIN_RPC_URL="http://127.0.0.1:8787/rpc/admin/SECRET-pr-7-1"\n',
    );
    expect(formatOutputs({}, "github", { networks, envNames: true, delimiter: () => "EOF" })).toContain(
      "MAINNET_RPC_URL<<EOF\nhttp://127.0.0.1:8787/rpc/public/pr-7-1\nEOF\n",
    );
  });

  it("writes a Foundry [rpc_endpoints] table, with <name>_admin entries only when asked", () => {
    const toml = formatOutputs({ ignored: { value: 1 } }, "foundry", { networks });
    expect(toml.split("\n").filter((line) => !line.startsWith("#"))).toEqual([
      "[rpc_endpoints]",
      'mainnet = "http://127.0.0.1:8787/rpc/public/pr-7-1"',
      'base_sepolia = "http://127.0.0.1:8787/rpc/public/pr-7-84532"',
      'chain_999999 = "http://127.0.0.1:8787/rpc/public/pr-7-999999"',
      "",
    ]);
    expect(toml).not.toContain("SECRET");
    expect(formatOutputs({}, "foundry", { networks, includeSensitive: true })).toContain(
      'mainnet_admin = "http://127.0.0.1:8787/rpc/admin/SECRET-pr-7-1"\n',
    );
  });

  it("writes Hardhat networks as JSON, with <name>_admin entries only when asked", () => {
    expect(JSON.parse(formatOutputs({}, "hardhat", { networks }))).toEqual({
      mainnet: { type: "http", url: "http://127.0.0.1:8787/rpc/public/pr-7-1", chainId: 73571 },
      base_sepolia: { type: "http", url: "http://127.0.0.1:8787/rpc/public/pr-7-84532", chainId: 845320 },
      chain_999999: { type: "http", url: "http://127.0.0.1:8787/rpc/public/pr-7-999999", chainId: 1999999 },
    });
    expect(JSON.parse(formatOutputs({}, "hardhat", { networks, includeSensitive: true })).mainnet_admin.url).toBe(
      "http://127.0.0.1:8787/rpc/admin/SECRET-pr-7-1",
    );
  });
});

describe("secretTexts", () => {
  it("masks every sensitive value as written and every string inside a map or list, nothing else", () => {
    expect(
      secretTexts({
        ...outputs,
        admin_rpc_urls: { value: { "1": "http://x/rpc/admin/a", "8453": "http://x/rpc/admin/b" }, sensitive: true },
        keys: { value: ["k1", ["k2"]], sensitive: true },
        nothing: { value: null, sensitive: true },
      }),
    ).toEqual([
      "http://127.0.0.1:8787/rpc/admin/SECRET",
      '{"1":"http://x/rpc/admin/a","8453":"http://x/rpc/admin/b"}',
      "http://x/rpc/admin/a",
      "http://x/rpc/admin/b",
      '["k1",["k2"]]',
      "k1",
      "k2",
    ]);
  });
});

describe("envName", () => {
  it.each([
    ["mainnet_rpc", "MAINNET_RPC"],
    ["rpc-url.1", "RPC_URL_1"],
    ["1st", "_1ST"],
  ])("maps %s to %s", (name, env) => expect(envName(name)).toBe(env));
});
