/**
 * The handful of ASN.1 DER encoders an X.509 certificate needs. Hand-rolled because a certificate library costs
 * ~60 ms of module loading, paid on every provider start (Terraform starts the provider 3-5 times per command).
 */

/** Encodes one tag-length-value element. */
export function tlv(tag: number, ...contents: Uint8Array[]): Uint8Array {
  const body = Buffer.concat(contents);
  return Buffer.concat([Uint8Array.of(tag), encodeLength(body.length), body]);
}

function encodeLength(length: number): Uint8Array {
  if (length < 0x80) return Uint8Array.of(length);
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return Uint8Array.of(0x80 | bytes.length, ...bytes);
}

/** SEQUENCE. */
export const sequence = (...items: Uint8Array[]): Uint8Array => tlv(0x30, ...items);
/** SET. */
export const set = (...items: Uint8Array[]): Uint8Array => tlv(0x31, ...items);
/** Context-specific constructed tag `[n]` (EXPLICIT wrapping). */
export const explicit = (n: number, ...items: Uint8Array[]): Uint8Array => tlv(0xa0 | n, ...items);
/** BOOLEAN. */
export const boolean = (value: boolean): Uint8Array => tlv(0x01, Uint8Array.of(value ? 0xff : 0));
/** OCTET STRING. */
export const octetString = (bytes: Uint8Array): Uint8Array => tlv(0x04, bytes);
/** UTF8String. */
export const utf8String = (text: string): Uint8Array => tlv(0x0c, Buffer.from(text, "utf8"));
/** BIT STRING with the given number of unused trailing bits. */
export const bitString = (bytes: Uint8Array, unusedBits = 0): Uint8Array => tlv(0x03, Uint8Array.of(unusedBits), bytes);

/** A non-negative INTEGER from its big-endian magnitude (a zero byte is prepended when the top bit is set). */
export function unsignedInteger(magnitude: Uint8Array): Uint8Array {
  let start = 0;
  while (start < magnitude.length - 1 && magnitude[start] === 0) start++;
  const trimmed = magnitude.subarray(start);
  return tlv(0x02, (trimmed[0]! & 0x80) !== 0 ? Buffer.concat([Uint8Array.of(0), trimmed]) : trimmed);
}

/** OBJECT IDENTIFIER from dotted notation. */
export function oid(dotted: string): Uint8Array {
  const arcs = dotted.split(".").map(Number);
  const bytes: number[] = [40 * arcs[0]! + arcs[1]!];
  for (const arc of arcs.slice(2)) {
    const base128: number[] = [];
    for (let rest = arc; ; rest = Math.floor(rest / 128)) {
      base128.unshift((rest % 128) | (base128.length > 0 ? 0x80 : 0));
      if (rest < 128) break;
    }
    bytes.push(...base128);
  }
  return tlv(0x06, Uint8Array.from(bytes));
}

/** A certificate validity time: UTCTime until 2049, GeneralizedTime from 2050 on (RFC 5280 4.1.2.5). */
export function time(date: Date): Uint8Array {
  const iso = date.toISOString(); // 2024-01-02T03:04:05.678Z
  const digits = iso.slice(0, 19).replace(/[-:T]/g, ""); // 20240102030405
  return date.getUTCFullYear() < 2050
    ? tlv(0x17, Buffer.from(`${digits.slice(2)}Z`, "ascii"))
    : tlv(0x18, Buffer.from(`${digits}Z`, "ascii"));
}
