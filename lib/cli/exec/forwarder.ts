/**
 * The TLS-terminating forwarder of `chainform exec`: on loopback, it answers TLS for the hosted host names with a
 * throw-away certificate and passes the bytes, Host header and all, to the local service, so that the service routes
 * them by their hosted names (lib/service/rpc/hosted-hosts.ts, the hosted API under `/api`).
 */
import net from "node:net";
import tls from "node:tls";
import { generateSelfSignedCertificate } from "../../certificates/self-signed";
import { HOSTED_API_HOST, HOSTED_DOMAIN, HOSTED_LEGACY_RPC_HOST, parseHostedHost } from "../../domain/hosted-names";
import { isLoopbackHost } from "../../domain/loopback";

/** A running forwarder. */
export interface Forwarder {
  /** The loopback port it listens on. */
  readonly port: number;
  /** The certificate (PEM) the child must trust. */
  readonly certPem: string;
  close(): Promise<void>;
}

/**
 * The names the certificate carries: the API host, the older forks' RPC host, every gateway host, and the vnet RPC host of each network label
 * given (a wildcard covers one label only, so each network is named).
 */
export function certificateNames(vnetNetworks: readonly string[]): string[] {
  const names = [HOSTED_API_HOST, HOSTED_LEGACY_RPC_HOST, `*.gateway.${HOSTED_DOMAIN}`];
  for (const network of new Set(vnetNetworks)) names.push(`virtual.${network}.rpc.${HOSTED_DOMAIN}`, `*.${network}.rpc.${HOSTED_DOMAIN}`);
  return names;
}

/** Certificates issued at most, per forwarder (one per host name; a program names a handful). */
const MAX_ISSUED = 1024;

/**
 * The SNI callback: a vnet host the certificate does not name (a region host `virtual.{network}.{region}.rpc…`, which
 * no wildcard covers, or a network the service learnt later) gets a certificate of its own, issued by the one the
 * child trusts; any other name gets that certificate itself.
 */
function issuer(authority: { commonName: string; organization: string; keyPem: string }) {
  const issued = new Map<string, tls.SecureContext>();
  return (servername: string, callback: (error: Error | null, context?: tls.SecureContext) => void): void => {
    const name = servername.toLowerCase().replace(/\.$/, "");
    const hosted = parseHostedHost(name);
    if (hosted?.kind !== "vnet") return callback(null);
    let context = issued.get(name);
    if (!context) {
      if (issued.size >= MAX_ISSUED) issued.delete(issued.keys().next().value!);
      const leaf = generateSelfSignedCertificate({ ...authority, commonName: name, dnsNames: [name], issuer: authority });
      context = tls.createSecureContext({ key: leaf.keyPem, cert: leaf.certPem });
      issued.set(name, context);
    }
    callback(null, context);
  };
}

/**
 * Starts the forwarder to the service at `baseUrl` (http or https on loopback).
 *
 * @example
 * const forwarder = await startForwarder("http://127.0.0.1:8787", ["mainnet", "base"]);
 */
export async function startForwarder(baseUrl: string, vnetNetworks: readonly string[]): Promise<Forwarder> {
  const target = new URL(baseUrl);
  const targetPort = Number(target.port || (target.protocol === "https:" ? 443 : 80));
  const host = target.hostname.replace(/^\[|\]$/g, "");
  const authority = { commonName: "chainform exec", organization: "chainform exec (throw-away)" };
  const certificate = generateSelfSignedCertificate({ ...authority, dnsNames: certificateNames(vnetNetworks) });
  const issue = issuer({ ...authority, keyPem: certificate.keyPem });
  const sockets = new Set<net.Socket>();
  const options: tls.TlsOptions = { key: certificate.keyPem, cert: certificate.certPem, SNICallback: issue };
  const server = tls.createServer(options, (client) => {
    // A service on loopback is this machine's own (its self-signed certificate is not checked); any other is.
    const upstream =
      target.protocol === "https:"
        ? tls.connect({ host, port: targetPort, servername: target.hostname, rejectUnauthorized: !isLoopbackHost(host) })
        : net.connect({ host, port: targetPort });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address() as net.AddressInfo;
  return {
    port: address.port,
    certPem: certificate.certPem,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
