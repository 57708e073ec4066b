/**
 * The preload `chainform exec` gives a Node.js child (`NODE_OPTIONS=--require …/preload.js`): TLS connections to the
 * hosted host names (lib/domain/hosted-names.ts) go to the exec's forwarder on loopback instead, keeping the
 * servername, so https, axios, undici (fetch) and ethers reach the local service under the hosted names. Nothing else
 * is redirected. The forwarder's certificate is trusted through NODE_EXTRA_CA_CERTS.
 */
import tls from "node:tls";
import { isHostedHostName } from "../../domain/hosted-names";

/** The variable that carries the forwarder's port to the child. */
export const EXEC_PORT_VARIABLE = "CHAINFORM_EXEC_FORWARDER_PORT";

/** The options of a `tls.connect` call, whichever of its forms the caller used. */
function optionsOf(args: unknown[]): { options: tls.ConnectionOptions; rest: unknown[] } {
  if (typeof args[0] === "object" && args[0] !== null) return { options: args[0] as tls.ConnectionOptions, rest: args.slice(1) };
  const [portArg, host, maybeOptions, ...others] = args;
  const options: tls.ConnectionOptions = { port: Number(portArg) };
  const rest: unknown[] = [];
  if (typeof host === "string") options.host = host;
  else if (host !== undefined) rest.push(host);
  if (typeof maybeOptions === "object" && maybeOptions !== null) Object.assign(options, maybeOptions);
  else if (maybeOptions !== undefined) rest.push(maybeOptions);
  return { options, rest: [...rest, ...others] };
}

/**
 * Sends TLS connections to the hosted host names to the forwarder on loopback `port`, keeping their server name;
 * returns what undoes it. The preload does this once for the child; a test may do it for a while in its own process.
 *
 * @example
 * const undo = redirectHostedNames(forwarder.port);
 */
export function redirectHostedNames(port: number): () => void {
  const connect = tls.connect;
  const redirected = function (this: unknown, ...args: unknown[]): tls.TLSSocket {
    const { options, rest } = optionsOf(args);
    const host = options.servername || options.host;
    if (typeof host !== "string" || options.socket || !isHostedHostName(host)) {
      return (connect as (...a: unknown[]) => tls.TLSSocket).apply(this, args);
    }
    const to = { ...options, host: "127.0.0.1", port, servername: host, lookup: undefined };
    return (connect as (...a: unknown[]) => tls.TLSSocket).apply(this, [to, ...rest]);
  };
  tls.connect = redirected as typeof tls.connect;
  return () => {
    if (tls.connect === redirected) tls.connect = connect;
  };
}

const port = Number(process.env[EXEC_PORT_VARIABLE]);
if (Number.isInteger(port) && port > 0) redirectHostedNames(port);
