/**
 * Which hosts are the machine itself: the rule by which the client accepts plain HTTP and the service serves it
 * without TLS (docs/serving-on-a-network.md).
 */
import { isIP } from "node:net";

/**
 * true when `hostname` (as URL.hostname gives it: IPv6 in brackets) is a loopback host: 127.0.0.0/8, ::1,
 * IPv4-mapped ::ffff:127.x.y.z, `localhost` or a `*.localhost` name (RFC 6761 keeps those on the machine).
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (isIP(host) === 4) return host.split(".")[0] === "127";
  if (isIP(host) === 6) {
    if (host === "::1" || /^(0{1,4}:){7}0{0,3}1$/.test(host)) return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
    if (mapped) return mapped[1]!.split(".")[0] === "127";
    const mappedHex = /^::ffff:([0-9a-f]{1,4}):[0-9a-f]{1,4}$/.exec(host);
    if (mappedHex) return parseInt(mappedHex[1]!, 16) >> 8 === 127;
  }
  return false;
}
