import { envName, formatOutputs } from "./outputs-format";

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

describe("envName", () => {
  it.each([
    ["mainnet_rpc", "MAINNET_RPC"],
    ["rpc-url.1", "RPC_URL_1"],
    ["1st", "_1ST"],
  ])("maps %s to %s", (name, env) => expect(envName(name)).toBe(env));
});
