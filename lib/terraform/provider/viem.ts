/**
 * viem for the provider (ABI encoding and decoding of contracts and calls). An ES import, so that the provider's
 * bundle (esbuild) keeps only these functions rather than all of viem (the lazy bundle would double). Its type
 * declarations are marked as ES modules, which TypeScript (node16) reports for a CommonJS file (TS1479); the
 * CommonJS build tsc's output requires loads fine, as lib/service/chains/evm/viem.ts relies on too.
 */
export type { Abi, AbiFunction, AbiParameter, Hex } from "viem" with { "resolution-mode": "import" };

// The expect-error must stay on the line before the statement, however long it grows: Prettier leaves it as written.
// prettier-ignore
// @ts-expect-error TS1479 (see above): the import is resolved and typed; only its module format is reported.
export { decodeErrorResult, decodeFunctionResult, encodeDeployData, encodeFunctionData, keccak256, parseAbiItem } from "viem";
