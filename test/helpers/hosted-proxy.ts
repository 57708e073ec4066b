/**
 * A forward proxy for tests of the hosted clients in this process: the clients' axios honours `HTTPS_PROXY` and opens
 * a tunnel (`CONNECT api.tenderly.co:443`). This proxy answers TLS in the tunnel with a throw-away certificate for the
 * hosted names (the test trusts it through \`https.globalAgent\`, whose TLS options axios gives the tunnelled connection) and passes the bytes, Host header and all,
 * to the local service, as `chainform exec`'s forwarder does, so the service routes them by their hosted host name.
 * The clients stay unchanged.
 */
import { createServer, request as httpRequest, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { TLSSocket } from "node:tls";
import { generateSelfSignedCertificate } from "../../lib/certificates/self-signed";

/** A running proxy. */
export interface HostedProxy {
  readonly url: string;
  /** The throw-away certificate (PEM) the clients must trust. */
  readonly certPem: string;
  /** Every hosted URL the clients asked for, in order (method and path), for the tests' counts. */
  readonly asked: string[];
  close(): Promise<void>;
}

/**
 * Starts a proxy to `serviceBaseUrl` (plain HTTP).
 *
 * @example
 * const proxy = await startHostedProxy(service.baseUrl);
 * process.env.HTTPS_PROXY = proxy.url;
 */
export async function startHostedProxy(serviceBaseUrl: string): Promise<HostedProxy> {
  const target = new URL(serviceBaseUrl);
  const asked: string[] = [];
  const server: Server = createServer((incoming, outgoing) => {
    const url = new URL(incoming.url ?? "/", "http://unknown");
    asked.push(`${incoming.method} ${url.host}${url.pathname}`);
    const forwarded = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: `${url.pathname}${url.search}`,
        headers: incoming.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on("error", () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  const certificate = generateSelfSignedCertificate({
    commonName: "api.tenderly.co",
    organization: "chainform tests",
    dnsNames: ["api.tenderly.co", "*.gateway.tenderly.co", "virtual.mainnet.rpc.tenderly.co"],
    ipAddresses: [],
  });
  server.on("connect", (request, socket, head) => {
    asked.push(`CONNECT ${request.url}`);
    socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    const secure = new TLSSocket(socket, { isServer: true, key: certificate.keyPem, cert: certificate.certPem });
    const service = connect(Number(target.port), target.hostname);
    if (head.length > 0) secure.unshift(head);
    secure.pipe(service).pipe(secure);
    const end = () => {
      secure.destroy();
      service.destroy();
    };
    secure.on("error", end).on("close", end);
    service.on("error", end).on("close", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    certPem: certificate.certPem,
    asked,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
