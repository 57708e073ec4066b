import { createRedactor, scrubDeep } from "./redact";

describe("createRedactor", () => {
  const scrub = createRedactor(["key_live_abc123", "eyJhbGciOi.payload.sig", undefined]);
  it("removes keys, tokens and their Basic-auth encodings", () => {
    const basic = Buffer.from("key_live_abc123:").toString("base64");
    expect(scrub(`bad key key_live_abc123 / ${basic} / Bearer eyJhbGciOi.payload.sig`)).toBe(
      "bad key [redacted] / [redacted] / Bearer [redacted]",
    );
  });
  it("removes Admin RPC secrets from paths and URLs", () => {
    expect(scrub("POST http://127.0.0.1:8787/rpc/admin/s3cr3t-Token_x?x=1 failed")).toBe(
      "POST http://127.0.0.1:8787/rpc/admin/[redacted]?x=1 failed",
    );
  });
  it("scrubs deeply inside JSON values", () => {
    expect(scrubDeep({ a: ["key_live_abc123"], b: { c: "/rpc/admin/zzz" }, n: 1 }, scrub)).toEqual({
      a: ["[redacted]"],
      b: { c: "/rpc/admin/[redacted]" },
      n: 1,
    });
  });
});
