import { formatUnits, MAX_UNIT_DECIMALS, normalizeBalance, parseBalance, parseTokenAmount, parseUnits } from "./amounts";

describe("parseUnits and formatUnits", () => {
  test("scale decimal amounts exactly, at any size", () => {
    expect(parseUnits("1.5", 6)).toEqual({ value: 1_500_000n });
    expect(parseUnits("1.50000", 1)).toEqual({ value: 15n }); // trailing zeros are no extra precision
    expect(parseUnits("9007199254740993", 0)).toEqual({ value: 9_007_199_254_740_993n });
    expect(parseUnits(" 2 ", 18)).toEqual({ value: 2n * 10n ** 18n });
  });

  test("say what is wrong with a bad amount or a bad number of decimals", () => {
    expect(parseUnits("1.5", 0)).toEqual({ error: '"1.5" has more than 0 decimals (it is more precise than one smallest unit)' });
    expect(parseUnits("-1", 6)).toEqual({ error: '"-1" is not a decimal amount: use digits with an optional fraction, e.g. "1.5"' });
    expect(parseUnits("1e3", 6)).toMatchObject({ error: expect.stringContaining("is not a decimal amount") });
    expect(parseUnits("1", MAX_UNIT_DECIMALS + 1)).toEqual({ error: "78 is not a number of decimals: use a whole number from 0 to 77" });
    expect(parseUnits("1", 1.5)).toMatchObject({ error: expect.stringContaining("1.5 is not a number of decimals") });
  });

  test("formatUnits is parseUnits' inverse, without trailing zeros", () => {
    expect(formatUnits(1_500_000n, 6)).toBe("1.5");
    expect(formatUnits(5n, 18)).toBe("0.000000000000000005");
    expect(formatUnits(10n ** 18n, 18)).toBe("1");
    expect(formatUnits(0n, 6)).toBe("0");
    expect(formatUnits(-15n, 1)).toBe("-1.5");
    for (const [text, decimals] of [
      ["123.456", 3],
      ["0.000001", 6],
      ["115792089237316195423570985008687907853269984665640564039457.584007913129639935", 18],
    ] as const) {
      const parsed = parseUnits(text, decimals);
      expect("value" in parsed && formatUnits(parsed.value, decimals)).toBe(text);
    }
    expect(() => formatUnits(1n, -1)).toThrow(/-1 is not a number of decimals/);
  });

  test("balances with a unit go through the same rule", () => {
    expect(parseBalance("1.5ether")).toEqual({ wei: 15n * 10n ** 17n });
    expect(parseBalance("0.5 gwei")).toEqual({ wei: 500_000_000n });
    expect(parseBalance("1.0000000001gwei")).toEqual({ error: '"1.0000000001gwei" is more precise than 1 wei' });
  });
});

describe("normalizeBalance", () => {
  test("gives lowercase hex wei without leading zeros", () => {
    expect(normalizeBalance("0x000DE0B6B3A7640000")).toBe("0xde0b6b3a7640000");
    expect(normalizeBalance("100ether")).toBe("0x56bc75e2d63100000");
    expect(normalizeBalance("16")).toBe("0x10");
    expect(() => normalizeBalance("lots")).toThrow(/"lots" is not a balance/);
  });
});

describe("parseTokenAmount", () => {
  test.each([
    ["0", 0n],
    ["1000000000000000000000", 10n ** 21n],
    ["0x3635c9adc5dea00000", 10n ** 21n],
    [((1n << 256n) - 1n).toString(), (1n << 256n) - 1n],
  ])("reads %s", (text, value) => expect(parseTokenAmount(text)).toBe(value));

  test.each(["", "-1", "1.5", "1e18", "007", (1n << 256n).toString(), "0x", `0x1${"0".repeat(64)}`])("refuses %j", (text) =>
    expect(parseTokenAmount(text)).toBeNull(),
  );
});
