import { toFunctionSelector } from "../../service/web-interface";
import { hasPairAmounts, PAIR_CALLS, pairTokenOf } from "./pairs";

test("a pair's selectors are token0() and token1(), and its amounts are told by their names", () => {
  expect(PAIR_CALLS.token0).toBe(toFunctionSelector("token0()"));
  expect(PAIR_CALLS.token1).toBe(toFunctionSelector("token1()"));
  const names = ["amount0In", "amount1Out", "reserve0", "reserve1", "amount0", "_amount1", "amount", "to", "amount2", "reserve0x"];
  expect(names.map(pairTokenOf)).toEqual([0, 1, 0, 1, 0, 1, undefined, undefined, undefined, undefined]);
  expect(hasPairAmounts([{ name: "sender" }, { name: "amount0In" }])).toBe(true);
  expect(hasPairAmounts([{ name: "value" }])).toBe(false);
});
