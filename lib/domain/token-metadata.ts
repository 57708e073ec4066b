/**
 * Reading a token's name, symbol and decimals from the token itself (`name()`, `symbol()`, `decimals()`), through
 * whatever makes an `eth_call` at a block: the pages' chain reads and the service's simulations share it.
 */
import { assetChanges, movedTokens, type AssetChanges, type AssetMetadata, type ValueFrame } from "./asset-changes";

/** `name()`, `symbol()`, `decimals()` selectors. */
export const TOKEN_CALLS = { name: "0x06fdde03", symbol: "0x95d89b41", decimals: "0x313ce567" } as const;
/** Longest token name or symbol kept. */
const MAX_TOKEN_TEXT = 200;

/**
 * The token's metadata when the contract answers all three calls (an ERC-20), else undefined. `call` sends calldata
 * to the token and answers the return data ("0x" when the call fails).
 */
export async function readTokenMetadata(call: (data: string) => Promise<string>): Promise<AssetMetadata | undefined> {
  const safe = (data: string) => call(data).catch(() => "0x");
  const [name, symbol, decimals] = await Promise.all([safe(TOKEN_CALLS.name), safe(TOKEN_CALLS.symbol), safe(TOKEN_CALLS.decimals)]);
  const nameText = decodeTokenText(name);
  const symbolText = decodeTokenText(symbol);
  if (nameText === undefined || symbolText === undefined || !/^0x[0-9a-fA-F]{64}$/.test(decimals)) return undefined;
  const places = BigInt(decimals);
  if (places > 255n) return undefined;
  return { name: nameText, symbol: symbolText, decimals: Number(places) };
}

/**
 * Decodes an ABI `string` return value, or a `bytes32` one (older tokens such as MKR); undefined when it is neither.
 */
export function decodeTokenText(data: string): string | undefined {
  const bytes = Buffer.from(data.replace(/^0x/, ""), "hex");
  let text: Buffer;
  if (bytes.length === 32) text = bytes.subarray(0, bytes.indexOf(0) === -1 ? 32 : bytes.indexOf(0));
  else {
    if (bytes.length < 64) return undefined;
    const offset = Number(BigInt(`0x${bytes.subarray(0, 32).toString("hex")}`) & 0xffffffffn);
    if (offset + 32 > bytes.length) return undefined;
    const length = Number(BigInt(`0x${bytes.subarray(offset, offset + 32).toString("hex")}`) & 0xffffffffn);
    if (offset + 32 + length > bytes.length) return undefined;
    text = bytes.subarray(offset + 32, offset + 32 + length);
  }
  const decoded = text.toString("utf8");
  return decoded.length > MAX_TOKEN_TEXT ? `${decoded.slice(0, MAX_TOKEN_TEXT)}…` : decoded;
}

/**
 * The asset and balance changes of a traced transaction (./asset-changes.ts), with the metadata of each token it moved
 * read at `blockTag`; a chain that no longer has that block's state (reloaded from a saved state) is asked at its
 * head. `ethCall` answers a call's return data, or throws.
 */
export async function tracedAssetChanges(
  ethCall: (to: string, data: string, blockTag: string) => Promise<string>,
  frame: ValueFrame,
  sender: string,
  fee: bigint,
  blockTag: string,
): Promise<AssetChanges> {
  const tokens = movedTokens(frame);
  const found = await Promise.all(
    tokens.map(async (token) => {
      const at = await readTokenMetadata((data) => ethCall(token, data, blockTag));
      return at ?? (blockTag === "latest" ? undefined : readTokenMetadata((data) => ethCall(token, data, "latest")));
    }),
  );
  return assetChanges(frame, sender, fee, new Map(tokens.map((token, i) => [token, found[i]])));
}
