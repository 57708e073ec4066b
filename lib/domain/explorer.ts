/**
 * The explorer rules (docs/explorer-and-dashboard.md): which Virtual Environments have a public explorer,
 * where it lives, and what it reveals of verified contracts.
 */
import { VERIFICATION_VISIBILITY_VALUES, type VerificationVisibility } from "./environment-rules";

/** The part of a network's configuration (a create request's `network_configs[i]`) the explorer rules read. */
export interface ExplorerSettings {
  readonly explorer_config?: { readonly enabled?: boolean; readonly verification_visibility?: VerificationVisibility };
}

/** What the explorer reveals, in order: each level shows everything the ones before it show. */
const VISIBILITY_ORDER: readonly VerificationVisibility[] = VERIFICATION_VISIBILITY_VALUES;

/** Visibility when `explorer_config.verification_visibility` is unset. */
export const DEFAULT_VERIFICATION_VISIBILITY: VerificationVisibility = "bytecode";

/** Whether a network config asks for a public explorer (`explorer_config.enabled: true`). */
export function explorerEnabled(config: ExplorerSettings | undefined): boolean {
  return config?.explorer_config?.enabled === true;
}

/** The explorer's visibility of verified contracts for a network config. */
export function verificationVisibility(config: ExplorerSettings | undefined): VerificationVisibility {
  return config?.explorer_config?.verification_visibility ?? DEFAULT_VERIFICATION_VISIBILITY;
}

/** Whether `visibility` reveals `what` (`abi` reveals the ABI; only `source` reveals the source). */
export function reveals(visibility: VerificationVisibility, what: VerificationVisibility): boolean {
  return VISIBILITY_ORDER.indexOf(visibility) >= VISIBILITY_ORDER.indexOf(what);
}

/**
 * The explorer URL of a Virtual Environment.
 *
 * @example
 * explorerUrl("http://127.0.0.1:8787", vnetId) // "http://127.0.0.1:8787/explorer/<vnetId>"
 */
export function explorerUrl(baseUrl: string, vnetId: string): string {
  return `${baseUrl}/explorer/${vnetId}`;
}
