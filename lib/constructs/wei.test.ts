import { ether, gwei, parseBalance, wei } from "./wei";

describe("ether / gwei / wei", () => {
  it("converts whole and fractional amounts to exact hex wei", () => {
    // GIVEN amounts as numbers, decimal strings, bigints and exponent notation
    // WHEN converted
    // THEN the hex is exactly amount × 10^decimals
    expect(ether(100)).toBe(`0x${(100n * 10n ** 18n).toString(16)}`);
    expect(ether("0.5")).toBe(`0x${(5n * 10n ** 17n).toString(16)}`);
    expect(ether(0.1)).toBe(`0x${(10n ** 17n).toString(16)}`);
    expect(ether(1n)).toBe("0xde0b6b3a7640000");
    expect(ether("1e-3")).toBe(`0x${(10n ** 15n).toString(16)}`);
    expect(gwei(30)).toBe("0x6fc23ac00");
    expect(gwei("1.5")).toBe(`0x${(15n * 10n ** 8n).toString(16)}`);
    expect(wei(1_000_000n)).toBe("0xf4240");
    expect(wei("0")).toBe("0x0");
    expect(wei(0)).toBe("0x0");
  });

  it("rejects negative amounts", () => {
    expect(() => ether(-1)).toThrow(/ether\(-1\): an amount must not be negative/);
    expect(() => gwei("-0.5")).toThrow(/must not be negative/);
    expect(() => wei(-3n)).toThrow(/must not be negative/);
  });

  it("rejects more precision than one wei", () => {
    expect(() => wei("0.5")).toThrow(/more decimals than 1 wei can hold/);
    expect(() => ether("0.0000000000000000001")).toThrow(/more decimals than 1 wei/);
    expect(() => gwei("0.0000000001")).toThrow(/more decimals/);
  });

  it("rejects what is not a decimal amount", () => {
    expect(() => ether("ten")).toThrow(/expected a decimal amount/);
    expect(() => ether("0x10")).toThrow(/expected a decimal amount/);
    expect(() => ether(Number.NaN)).toThrow(/finite number/);
    expect(() => ether(Number.POSITIVE_INFINITY)).toThrow(/finite number/);
  });

  it("rejects amounts beyond 256 bits", () => {
    expect(() => wei(1n << 256n)).toThrow(/more than 2\^256-1 wei/);
  });
});

describe("parseBalance", () => {
  it("reads hex, decimal and ether-suffixed balances", () => {
    expect(parseBalance("0x10")).toBe(16n);
    expect(parseBalance("0xDE0B6B3A7640000")).toBe(10n ** 18n);
    expect(parseBalance("1000")).toBe(1000n);
    expect(parseBalance("100ether")).toBe(100n * 10n ** 18n);
    expect(parseBalance("0.5 ether")).toBe(5n * 10n ** 17n);
    // One grammar with the provider and the service (lib/domain): gwei, wei and eth suffixes too.
    expect(parseBalance("5gwei")).toBe(5n * 10n ** 9n);
    expect(parseBalance("42wei")).toBe(42n);
    expect(parseBalance("100 eth")).toBe(100n * 10n ** 18n);
  });

  it("rejects anything else", () => {
    for (const bad of ["", "0x", "0xzz", "-1", "1.5", "100  eth", "100 wei-ish", "ether", "1e18"]) {
      expect(parseBalance(bad)).toBeUndefined();
    }
  });
});
