import fc from "fast-check";
import { viem } from "../../test/helpers/viem";
import { addressProblem, checksumAddress, isValidChecksumAddress } from "./address";
import { keccak256 } from "./keccak";

const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString("hex")}`;

describe("keccak256", () => {
  test("known digests", () => {
    expect(hex(keccak256(new Uint8Array()))).toBe("0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470");
    expect(hex(keccak256(new TextEncoder().encode("abc")))).toBe("0x4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45");
  });

  test("agrees with viem's (@noble/hashes) on any input", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => {
        expect(hex(keccak256(bytes))).toBe(viem.keccak256(bytes));
      }),
      { numRuns: 300 },
    );
  });
});

describe("EIP-55", () => {
  // The examples of EIP-55 itself.
  const EXAMPLES = [
    "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
    "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
    "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
  ];

  test.each(EXAMPLES)("%s is its own checksum, in any of the three spellings", (address) => {
    expect(checksumAddress(address.toLowerCase())).toBe(address);
    expect(isValidChecksumAddress(address)).toBe(true);
    expect(isValidChecksumAddress(address.toLowerCase())).toBe(true);
    expect(isValidChecksumAddress(`0x${address.slice(2).toUpperCase()}`)).toBe(true);
    expect(addressProblem(address)).toBeUndefined();
  });

  test("a mixed-case address with one letter's case flipped is invalid, and the message says so without offering a spelling", () => {
    const wrong = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD";
    expect(isValidChecksumAddress(wrong)).toBe(false);
    expect(addressProblem(wrong)).toBe(
      "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD does not match its EIP-55 checksum (the case of its letters): a character may be mistyped. Copy the address again, or write it in lowercase to skip the check",
    );
    expect(addressProblem("0x1234")).toBe('"0x1234" is not an address: use 0x followed by 40 hex digits');
    expect(() => checksumAddress("0x1234")).toThrow(RangeError);
  });

  test("agrees with viem's getAddress on random addresses", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), (bytes) => {
        const lower = hex(bytes);
        expect(checksumAddress(lower)).toBe(viem.getAddress(lower));
      }),
      { numRuns: 300 },
    );
  });
});
