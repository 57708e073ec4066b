/**
 * The chainform provider at the protocol level: the framework's dispatcher over {@link chainformProvider}. The
 * executable (main.ts) loads this module, a bundle of its own, only after the handshake.
 */
import { createProviderServer } from "../framework/dispatcher";
import type { ProviderServer } from "../protocol/provider-server";
import { chainformProvider } from "./provider";

/** Creates the server Terraform's RPCs go to. */
export function createChainformServer(): ProviderServer {
  return createProviderServer(chainformProvider);
}
