/**
 * viem for the provider (ABI encoding and decoding of contracts and calls). Its type declarations are marked as ES
 * modules, so TypeScript (node16) refuses a plain import from this CommonJS package while its CommonJS build loads
 * fine; the provider imports viem from here, as the chain engine does from lib/service/chains/viem.ts.
 */
import type * as Viem from "viem" with { "resolution-mode": "import" };

export type { Abi, AbiFunction, AbiParameter, Hex } from "viem" with { "resolution-mode": "import" };

// eslint-disable-next-line @typescript-eslint/no-require-imports
const viem: typeof Viem = require("viem");

export const { decodeErrorResult, decodeFunctionResult, encodeDeployData, encodeFunctionData, keccak256, parseAbiItem } = viem;
