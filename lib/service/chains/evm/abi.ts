/**
 * The engine's decoding of calls and logs: the domain's decoder (lib/domain/decode) with viem and chainform's bridge
 * ABI. The bridge's `deposit(uint256,address)` has ERC-4626's selector, so at the bridge's address its ABI is the
 * contract's own and comes first; elsewhere it only fills in after the standard interfaces.
 */
import { abiDecoder } from "../../../domain/decode/decoder";
import { BRIDGE_ADDRESS } from "../../../domain/bridge-contract";
import type { DecodedArgument, SimulationLog } from "../../../api";
import { loadArtifact } from "./artifacts";
import * as viem from "./viem";

const bridgeAbi = (): viem.Abi => loadArtifact("ChainformBridge").abi as viem.Abi;
const decoder = abiDecoder(viem, () => [bridgeAbi()]);

/** The bridge's ABI for a contract at `address`, the one contract whose ABI the engine knows by its address. */
function ownAbi(address: string | undefined): viem.Abi | undefined {
  return address?.toLowerCase() === BRIDGE_ADDRESS ? bridgeAbi() : undefined;
}

/** Decodes a log list (each address lowercased); a log no known event fits keeps an empty name. */
export function decodeLogs(logs: readonly { address: string; topics: readonly string[]; data: string }[]): SimulationLog[] {
  return logs.map((log) => decoder.decodeLog(log, { abi: ownAbi(log.address) }));
}

/** A call's method name and decoded input/output when its selector is known. */
export interface DecodedCall {
  readonly method: string;
  readonly decodedInput: DecodedArgument[];
  readonly decodedOutput: DecodedArgument[];
}

/**
 * Decodes a call to `to` (undefined for a creation). `method` is the function name when known, else the 4-byte
 * selector (empty for a plain transfer or a creation); `output` is decoded only for a call that succeeded.
 */
export function decodeCall(input: string, output: string | undefined, succeeded: boolean, to?: string): DecodedCall {
  const { method, args, results } = decoder.decodeCall(input, output, succeeded, { abi: ownAbi(to) });
  return { method, decodedInput: args, decodedOutput: results };
}
