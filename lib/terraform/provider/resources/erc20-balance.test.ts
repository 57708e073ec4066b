import { erc20BalanceSchema, parseAmount } from "./erc20-balance";

describe("chainform_erc20_balance amounts", () => {
  it.each([
    ["0", 0n],
    ["1000000000000000000000", 10n ** 21n],
    ["0x3635c9adc5dea00000", 10n ** 21n],
    [((1n << 256n) - 1n).toString(), (1n << 256n) - 1n],
  ])("reads %s", (text, value) => expect(parseAmount(text)).toBe(value));

  it.each(["", "-1", "1.5", "1e18", "007", (1n << 256n).toString(), "0x", `0x1${"0".repeat(64)}`])("refuses %j", (text) => expect(parseAmount(text)).toBeNull());

  it("updates the amount in place; anything else replaces", () => {
    const replaces = Object.entries(erc20BalanceSchema.attributes)
      .filter(([, a]) => ((a.options as { planModifiers?: readonly { description?: string }[] }).planModifiers ?? []).some((m: { description?: string }) => /replace/i.test(String(m.description ?? ""))))
      .map(([name]) => name);
    expect(replaces.sort()).toEqual(["environment_id", "holder", "token", "vnet_id"]);
  });
});
