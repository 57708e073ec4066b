/**
 * Token transfers read from decoded events (ERC-20 and ERC-721 `Transfer`, ERC-1155 `TransferSingle`, WETH's
 * `Deposit` and `Withdrawal` as a mint and a burn of the wrapped token), with each token's symbol and decimals read
 * from the token at the transaction's block.
 */
import { formatUnits, MAX_UNIT_DECIMALS, type SimulationLog } from "../../api";
import type { ChainReader, TokenMetadata } from "../chain-reader";

/** The zero address: a mint's sender and a burn's receiver. */
export const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

/** One movement of a token. */
export interface TokenTransfer {
  /** The token contract (lowercase). */
  readonly token: string;
  readonly from: string;
  readonly to: string;
  /** The integer amount (ERC-20, ERC-1155) or 1 (ERC-721). */
  readonly amount: bigint;
  /** The NFT's id (ERC-721, ERC-1155). */
  readonly tokenId?: string;
  readonly standard: "ERC-20" | "ERC-721" | "ERC-1155";
}

/** The transfers a transaction's decoded logs tell of, in log order. */
export function tokenTransfers(logs: readonly SimulationLog[]): TokenTransfer[] {
  const transfers: TokenTransfer[] = [];
  for (const log of logs) {
    const arg = (name: string) => log.inputs.find((input) => input.name === name)?.value ?? "";
    const token = log.raw.address.toLowerCase();
    const topics = log.raw.topics.length;
    if (log.name === "Transfer" && topics === 3 && log.inputs.length === 3) {
      transfers.push({
        token,
        from: log.inputs[0]!.value,
        to: log.inputs[1]!.value,
        amount: BigInt(log.inputs[2]!.value),
        standard: "ERC-20",
      });
    } else if (log.name === "Transfer" && topics === 4 && log.inputs.length === 3) {
      const tokenId = log.inputs[2]!.value;
      transfers.push({ token, from: log.inputs[0]!.value, to: log.inputs[1]!.value, amount: 1n, tokenId, standard: "ERC-721" });
    } else if (log.name === "TransferSingle" && topics === 4) {
      transfers.push({ token, from: arg("from"), to: arg("to"), amount: BigInt(arg("value")), tokenId: arg("id"), standard: "ERC-1155" });
    } else if (log.name === "Deposit" && topics === 2 && log.inputs.length === 2) {
      transfers.push({ token, from: ZERO_ADDRESS, to: log.inputs[0]!.value, amount: BigInt(log.inputs[1]!.value), standard: "ERC-20" });
    } else if (log.name === "Withdrawal" && topics === 2 && log.inputs.length === 2) {
      transfers.push({ token, from: log.inputs[0]!.value, to: ZERO_ADDRESS, amount: BigInt(log.inputs[1]!.value), standard: "ERC-20" });
    }
  }
  return transfers;
}

/** Reads (once per token) the metadata of the tokens a page shows, at one block. */
export class TokenBook {
  private readonly cache = new Map<string, Promise<TokenMetadata | undefined>>();

  constructor(
    private readonly chain: ChainReader,
    private readonly blockTag = "latest",
  ) {}

  /** A token's name, symbol and decimals, undefined when it does not answer them. */
  metadata(token: string): Promise<TokenMetadata | undefined> {
    const key = token.toLowerCase();
    let found = this.cache.get(key);
    if (!found) this.cache.set(key, (found = this.chain.tokenMetadata(key, this.blockTag).catch(() => undefined)));
    return found;
  }

  /** Reads the metadata of several contracts at once (undefined for those that are no token), by lowercase address. */
  async load(addresses: Iterable<string>): Promise<Map<string, TokenMetadata | undefined>> {
    const tokens = [...new Set([...addresses].map((a) => a.toLowerCase()))];
    const found = await Promise.all(tokens.map((t) => this.metadata(t)));
    return new Map(tokens.map((t, i) => [t, found[i]]));
  }
}

/** An amount in the token's units with its symbol (`2.5 TT`), or the integer when the token does not say its decimals. */
export function tokenAmount(amount: bigint, metadata: TokenMetadata | undefined): string {
  if (!metadata) return amount.toString();
  const units = metadata.decimals <= MAX_UNIT_DECIMALS ? formatUnits(amount, metadata.decimals) : amount.toString();
  return `${units} ${metadata.symbol}`;
}
