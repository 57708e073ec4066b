/**
 * Balances and quantities as the environment resource accepts them: lib/domain's one grammar (lib/domain/amounts.ts),
 * re-exported for the provider. The configuration keeps the user's text (`"100ether"`); the service stores
 * canonical hex wei. Two texts are the same balance when they normalize to the same hex, which is how the resource
 * avoids a perpetual diff.
 */
export { BALANCE_FORMATS, canonicalHex, normalizeBalance, parseBalance, sameBalance, sameQuantity } from "../../domain/amounts";
