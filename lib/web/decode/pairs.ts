/**
 * Pools that hold two tokens and say which (the Uniswap V2 pair interface: `token0()` and `token1()`, each answering
 * an address): their events' amounts (`amount0In`, `amount1Out`, `reserve0`, `amount1`, …) are amounts of those two
 * tokens, shown in the tokens' units with their symbols.
 */
import type { ChainReader } from "../chain-reader";

/** The two tokens of a pair, lowercase. */
export interface PairTokens {
  readonly token0: string;
  readonly token1: string;
}

/** `token0()` and `token1()` selectors. */
export const PAIR_CALLS = { token0: "0x0dfe1681", token1: "0xd21220a7" } as const;

/** An argument named for one of the pair's two tokens: `amount0`, `amount0In`, `amount1Out`, `reserve1`, … */
const PAIR_AMOUNT = /^_?(amount|reserve)([01])(In|Out)?$/;

/** Which of the pair's tokens an argument is an amount of (0 or 1), undefined when its name says none. */
export function pairTokenOf(argumentName: string): 0 | 1 | undefined {
  const match = PAIR_AMOUNT.exec(argumentName);
  return match ? (match[2] === "0" ? 0 : 1) : undefined;
}

/** Whether an event has an argument named for a pair's token (so its emitter is worth asking `token0()`). */
export function hasPairAmounts(inputs: readonly { name: string }[]): boolean {
  return inputs.some((input) => pairTokenOf(input.name) !== undefined);
}

/** The pair's two tokens, read at a block; undefined when the contract does not answer both with an address. */
export async function pairTokens(chain: ChainReader, address: string, blockTag = "latest"): Promise<PairTokens | undefined> {
  const read = (data: string) => chain.call<string>("eth_call", [{ to: address, data }, blockTag]).catch(() => "0x");
  const [token0, token1] = await Promise.all([read(PAIR_CALLS.token0), read(PAIR_CALLS.token1)]);
  const asAddress = (word: string) => (/^0x0{24}[0-9a-fA-F]{40}$/.test(word) ? `0x${word.slice(26).toLowerCase()}` : undefined);
  const [first, second] = [asAddress(token0), asAddress(token1)];
  return first && second ? { token0: first, token1: second } : undefined;
}
