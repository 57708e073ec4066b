/**
 * The one contract verifier, as the service's doors see it. It lives in the web part (lib/web/verification: the
 * explorer's Etherscan-compatible API and its table of verified contracts), which the service may not import; the web
 * part implements this port and listen.ts, which composes the two, hands it to the service (`app.service.verifier`).
 * The hosted API's verification doors (routes/hosted/verification.ts) and the RPC URLs' `/verify` doors
 * (rpc/verify-doors.ts) call it, so a contract verified through any door is the one the explorer shows.
 */

/** Largest body a verification door reads: a 4 MB standard JSON input, form-encoded (which can triple it), and the rest. */
export const MAX_VERIFICATION_BODY_BYTES = 13 * 1024 * 1024;

/** What a source submission names (as the explorer's `verifysourcecode` takes it). */
export interface SourceSubmission {
  /** The standard JSON input, as text. */
  readonly standardJsonInput: string;
  /** `path/File.sol:Name`. */
  readonly contractName: string;
  /** The compiler's version, long (`v0.8.28+commit.7893614a`) or short (`0.8.28`: the shipped compiler's, if it is that). */
  readonly compilerVersion: string;
  /** ABI-encoded constructor arguments, hex without 0x; empty when none. */
  readonly constructorArguments?: string;
}

/** How a submission went. */
export type VerificationOutcome =
  | { readonly kind: "verified"; readonly contractName: string; readonly compilerVersion: string; readonly abi: readonly unknown[] }
  /** The source does not compile, or the submission is refused before compiling (the message says what to fix). */
  | { readonly kind: "refused"; readonly message: string }
  /** It compiles, but not to the code deployed at the address (or there is none). */
  | { readonly kind: "mismatch"; readonly message: string };

/** An Etherscan-style answer: the HTTP status and the `{ status, message, result }` body. */
export interface EtherscanAnswer {
  readonly httpStatus: number;
  readonly body: { readonly status: "0" | "1"; readonly message: string; readonly result: unknown };
}

/** The verifier port. */
export interface ContractVerifier {
  /**
   * Verifies the contract at `address` of a Virtual Environment's chain and keeps it verified. Throws a
   * `ServiceError` (503) when the compiler is busy.
   */
  verify(vnetId: string, address: string, submission: SourceSubmission): Promise<VerificationOutcome>;
  /**
   * The explorer's Etherscan-compatible API for a vnet (`verifysourcecode`, `checkverifystatus`, `getabi`,
   * `getsourcecode`), for doors whose URL or credentials already name the vnet: it answers whether or not the
   * vnet's explorer is enabled.
   */
  etherscan(vnetId: string, parameters: Readonly<Record<string, string | undefined>>): Promise<EtherscanAnswer>;
  /** The verified contract's name and ABI at an address of a vnet, if any. */
  verified(vnetId: string, address: string): { readonly contractName: string; readonly abi: readonly unknown[] } | undefined;
}
