import { erc20BalanceSchema } from "./erc20-balance";

describe("chainform_erc20_balance", () => {
  it("updates the amount in place; anything else replaces", () => {
    const replaces = Object.entries(erc20BalanceSchema.attributes)
      .filter(([, a]) =>
        ((a.options as { planModifiers?: readonly { description?: string }[] }).planModifiers ?? []).some((m: { description?: string }) =>
          /replace/i.test(String(m.description ?? "")),
        ),
      )
      .map(([name]) => name);
    expect(replaces.sort()).toEqual(["environment_id", "holder", "token", "vnet_id"]);
  });
});
