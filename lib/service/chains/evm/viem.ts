/**
 * viem for this CommonJS package: its type declarations are marked as ES modules, so TypeScript (node16) refuses
 * a plain import from CommonJS, while its CommonJS build loads fine. The engine imports viem from here.
 */
import type * as Viem from "viem" with { "resolution-mode": "import" };

export type { Abi, AbiEvent, AbiFunction, AbiParameter, Hex } from "viem" with { "resolution-mode": "import" };

// eslint-disable-next-line @typescript-eslint/no-require-imports
const viem: typeof Viem = require("viem");

export const {
  decodeEventLog,
  decodeFunctionData,
  decodeFunctionResult,
  encodeFunctionData,
  hexToBytes,
  keccak256,
  parseAbi,
  parseTransaction,
  recoverTransactionAddress,
  stringToHex,
  toEventSelector,
  toFunctionSelector,
} = viem;
