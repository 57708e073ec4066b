/**
 * `chainform exec`'s mechanism in a test's own process, for tests that drive a hosted client in-process: the exec
 * forwarder (lib/cli/exec/forwarder.ts) in front of the test's service, and the preload's redirect of the hosted host
 * names to it (lib/cli/exec/preload.ts), with the forwarder's certificate trusted by `https.globalAgent` (what
 * NODE_EXTRA_CA_CERTS does for exec's child, which a running process cannot take). The clients stay unchanged.
 *
 * @example
 * const hosted = await startHostedExec(service.baseUrl);
 * // ... new Tenderly({...}).contracts.add(...) reaches the service as https://api.tenderly.co
 * await hosted.close();
 */
import https from "node:https";
import { startForwarder } from "../../lib/cli/exec/forwarder";
import { redirectHostedNames } from "../../lib/cli/exec/preload";

/** The redirect in place, until closed. */
export interface HostedExec {
  close(): Promise<void>;
}

/** Starts the forwarder to `serviceBaseUrl` and redirects the hosted names of this process to it. */
export async function startHostedExec(serviceBaseUrl: string): Promise<HostedExec> {
  const forwarder = await startForwarder(serviceBaseUrl, ["mainnet"]);
  const undo = redirectHostedNames(forwarder.port);
  const before = https.globalAgent.options.ca;
  https.globalAgent.options.ca = [forwarder.certPem];
  return {
    close: async () => {
      undo();
      https.globalAgent.options.ca = before;
      await forwarder.close();
    },
  };
}
