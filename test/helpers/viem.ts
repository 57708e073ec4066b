/**
 * viem for the tests, the Ethereum client library they check the chains with. Its type declarations are marked as
 * ES modules, so TypeScript (node16) refuses a plain import from this CommonJS package while the CommonJS build
 * loads fine: tests import viem from here (the engine has its own, lib/service/chains/evm/viem.ts).
 */
import type * as Viem from "viem" with { "resolution-mode": "import" };
import type * as ViemAccounts from "viem/accounts" with { "resolution-mode": "import" };

export type { Hex } from "viem" with { "resolution-mode": "import" };

const viem: typeof Viem = require("viem");
const accounts: typeof ViemAccounts = require("viem/accounts");

export { viem };
export const { createPublicClient, createWalletClient, decodeEventLog, encodeDeployData, encodeFunctionData, http, parseEther } = viem;
export const { privateKeyToAccount } = accounts;
