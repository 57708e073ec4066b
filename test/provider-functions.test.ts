/**
 * Acceptance: every provider function called from HCL by real terraform through the offline mirror, with good
 * arguments (values above 2^53 included, which must come back exact) and bad ones (each error names the parameter
 * and says what is wrong). Functions need no service: Terraform may call them on an unconfigured provider.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { acceptance, PROVIDER_BLOCK, type Acceptance } from "./helpers/acceptance";

const MAX_UINT256 = ((1n << 256n) - 1n).toString();
const MAX_UINT256_ETHER = `${MAX_UINT256.slice(0, -18)}.${MAX_UINT256.slice(-18)}`;
const OVER_UINT256_ETHER = `${(1n << 256n).toString().slice(0, -18)}.${(1n << 256n).toString().slice(-18)}`;

/** Output name → [call, expected value]. */
const GOOD: Record<string, [string, string]> = {
  ether: ['ether("1.5")', "1500000000000000000"],
  ether_number: ["ether(1.5)", "1500000000000000000"],
  ether_beyond_2_53: ["ether(123456789012345678901234567890)", "123456789012345678901234567890000000000000000000"],
  ether_max: [`ether("${MAX_UINT256_ETHER}")`, MAX_UINT256],
  parse_units_usdc: ['parse_units("1.5", 6)', "1500000"],
  parse_units_beyond_2_53: ['parse_units("9007199254740993", 0)', "9007199254740993"],
  format_units: ['format_units("1500000000000000000", 18)', "1.5"],
  format_units_hex: ['format_units("0x16e360", 6)', "1.5"],
  format_units_beyond_2_53: ['format_units("9007199254740993000001", 6)', "9007199254740993.000001"],
  to_hex: ["block_number_to_hex(19000000)", "0x121eac0"],
  to_hex_beyond_2_53: ["block_number_to_hex(9007199254740993)", "0x20000000000001"],
  to_hex_max: ['block_number_to_hex("18446744073709551615")', "0xffffffffffffffff"],
  from_hex: ['block_number_from_hex("0x121eac0")', "19000000"],
  from_hex_beyond_2_53: ['block_number_from_hex("0x20000000000001")', "9007199254740993"],
  from_hex_max: ['block_number_from_hex("0xFFFFFFFFFFFFFFFF")', "18446744073709551615"],
  checksum: ['checksum_address("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed")', "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"],
  checksum_upper: ['checksum_address("0xFB6916095CA1DF60BB79CE92CE3EA74C37C5D359")', "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"],
  checksum_already: ['checksum_address("0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB")', "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB"],
  slug: ['slug("CI run 42")', "ci-run-42"],
  slug_punctuation: ['slug("My Env (Base)!")', "my-env-base"],
};

/** Output name → [call, parameter named in the error, what the error says]. */
const BAD: Record<string, [string, string, RegExp]> = {
  ether_not_decimal: ['ether("1.5.0")', "amount", /"1\.5\.0" is not a decimal amount/],
  ether_negative: ["ether(-1)", "amount", /"-1" is not a decimal amount/],
  ether_below_wei: ['ether("0.0000000000000000001")', "amount", /has more than 18 decimals/],
  ether_over_uint256: [`ether("${OVER_UINT256_ETHER}")`, "amount", /more than 2\^256-1/],
  parse_units_decimals: ['parse_units("1", 78)', "decimals", /78 is not a number of decimals: use a whole number from 0 to 77/],
  parse_units_fraction_decimals: ['parse_units("1", 1.5)', "decimals", /1\.5 is not a number of decimals/],
  parse_units_precision: ['parse_units("1.5", 0)', "amount", /"1\.5" has more than 0 decimals/],
  format_units_fraction: ['format_units("1.5", 6)', "value", /"1\.5" is not a whole number of smallest units/],
  to_hex_over_2_64: ["block_number_to_hex(18446744073709551616)", "block_number", /18446744073709551616 is above 2\^64-1/],
  to_hex_not_decimal: ['block_number_to_hex("0x10")', "block_number", /"0x10" is not a block number: use a whole number in decimal/],
  from_hex_over_2_64: ['block_number_from_hex("0x10000000000000000")', "block_number", /is above 2\^64-1, the largest block number/],
  from_hex_not_hex: ['block_number_from_hex("12")', "block_number", /"12" is not a block number: use hex/],
  checksum_wrong: ['checksum_address("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD")', "address", /does not match its EIP-55 checksum/],
  checksum_short: ['checksum_address("0x1234")', "address", /"0x1234" is not an address/],
  slug_empty: ['slug("  ")', "display_name", /a display name must not be empty/],
};

const outputs = (calls: Record<string, string>) =>
  Object.entries(calls)
    .map(([name, call]) => `output "${name}" {\n  value = provider::chainform::${call}\n}\n`)
    .join("\n");

describe("provider functions from HCL", () => {
  let run: Acceptance;

  beforeAll(async () => {
    run = await acceptance();
  }, 60_000);
  afterAll(() => run?.dispose());

  test("good arguments give exact results, also beyond 2^53", async () => {
    await run.step({
      name: "apply the outputs",
      config: `${PROVIDER_BLOCK}\n${outputs(Object.fromEntries(Object.entries(GOOD).map(([name, [call]]) => [name, call])))}`,
      command: "apply",
    });
    const values = Object.fromEntries(Object.entries(await run.outputs()).map(([name, { value }]) => [name, value]));
    expect(values).toEqual(Object.fromEntries(Object.entries(GOOD).map(([name, [, expected]]) => [name, expected])));
  }, 120_000);

  test("bad arguments fail with the parameter named and what is wrong", async () => {
    const result = await run.step({
      name: "plan the bad calls",
      config: `${PROVIDER_BLOCK}\n${outputs(Object.fromEntries(Object.entries(BAD).map(([name, [call]]) => [name, call])))}`,
      command: "plan",
      expectError: /Invalid function argument/,
    });
    // One error block per call; each names its output, the function's signature and the parameter.
    const blocks = (result.stdout + result.stderr).split(/^Error: /m).slice(1);
    expect(blocks).toHaveLength(Object.keys(BAD).length);
    for (const [name, [call, parameter, message]] of Object.entries(BAD)) {
      const block = blocks.find((b) => b.includes(`output "${name}"`));
      expect([name, block]).toEqual([name, expect.stringContaining(`while calling provider::chainform::${call.split("(")[0]}(`)]);
      expect([name, block!.replace(/\s+/g, " ")]).toEqual([name, expect.stringContaining(`Invalid value for "${parameter}" parameter:`)]);
      expect([name, block!.replace(/\s+/g, " ")]).toEqual([name, expect.stringMatching(message)]);
    }
  }, 120_000);

  test("examples/hcl/functions applies as written", async () => {
    await run.step({
      name: "apply the example",
      config: readFileSync(join(__dirname, "..", "examples", "hcl", "functions", "main.tf"), "utf8"),
      command: "apply",
    });
    const values = Object.fromEntries(Object.entries(await run.outputs()).map(([name, { value }]) => [name, value]));
    expect(values).toEqual({
      amounts: { one_and_a_half_ether: "1500000000000000000", usdc: "250000000", formatted: "1.5" },
      block_numbers: { fork_block: "0x121eac0", decimal: "19000000" },
      checksummed: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
      slug: "ci-run-42",
    });
  }, 120_000);
});
