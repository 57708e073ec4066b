/**
 * The verifier the service's other doors use (lib/service/contract-verifier.ts): the hosted API's JSON doors and the
 * Etherscan-compatible doors of the hosted API and the RPC URLs. It is the explorer's verifier (./api.ts), reached
 * without the explorer's page: the caller's URL or credentials already name the vnet, so it answers whether or not
 * the vnet's explorer is enabled.
 */
import type { ContractVerifier, SourceSubmission, VerificationOutcome } from "../../service/web-interface";
import { ServiceError } from "../../service/web-interface";
import { ChainReader } from "../chain-reader";
import { vnetView, type WebContext } from "../context";
import { etherscanAnswer, verifyAndKeep } from "./api";
import { CompilerBusy } from "./compiler";
import { VerificationRefused } from "./verifier";

/** A short compiler version, as Hardhat's config and the hosted clients name it. */
const SHORT_VERSION = /^v?[0-9]+\.[0-9]+\.[0-9]+$/;

/**
 * The service's verifier over the web part's.
 *
 * @example
 * app.service.verifier = serviceVerifier(context, app.log);
 */
export function serviceVerifier(context: WebContext, logError: (error: unknown) => void): ContractVerifier {
  const passed = new Map<string, string>();
  return {
    async verify(vnetId, address, submission): Promise<VerificationOutcome> {
      const code = await new ChainReader(context.service.chains, vnetId).code(address);
      if (code === "0x" || code === "") return { kind: "mismatch", message: `there is no contract code at ${address.toLowerCase()}` };
      try {
        const kept = await verifyAndKeep(context, vnetId, address, code, await withLongVersion(context, submission));
        return { kind: "verified", contractName: kept.contractName, compilerVersion: kept.compilerVersion, abi: kept.abi };
      } catch (error) {
        if (error instanceof CompilerBusy) throw new ServiceError(503, error.message);
        if (!(error instanceof VerificationRefused)) throw error;
        const mismatch = error.message.includes("differs from the code deployed");
        return { kind: mismatch ? "mismatch" : "refused", message: error.message };
      }
    },
    async etherscan(vnetId, parameters) {
      const view = vnetView(context.service.views, vnetId);
      if (!view) return { httpStatus: 404, body: { status: "0", message: "NOTOK", result: "no such Virtual Environment" } };
      return etherscanAnswer(context, view, { ...parameters }, passed, logError);
    },
    verified(vnetId, address) {
      const contract = context.verified.get(vnetId, address);
      return contract && { contractName: contract.contractName, abi: contract.abi };
    },
  };
}

/** A short version (`0.8.28`) made the long one of the installed compiler of that release; anything else as it is. */
async function withLongVersion(context: WebContext, submission: SourceSubmission): Promise<SourceSubmission> {
  if (!SHORT_VERSION.test(submission.compilerVersion)) return submission;
  const short = submission.compilerVersion.replace(/^v/, "");
  // The installed compiler of that release names its commit; none installed leaves the version as given.
  const available = await Promise.resolve()
    .then(() => context.compiler.forRelease(short).compilerVersion())
    .catch(() => "");
  return available.replace(/^v/, "").startsWith(`${short}+`) ? { ...submission, compilerVersion: available } : submission;
}
