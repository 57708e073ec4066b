import type * as Viem from "viem" with { "resolution-mode": "import" };
import { addressChecksumProblem, toChecksumAddress } from "./address";
import { keccak256 } from "./keccak";

// viem's CommonJS build, typed by its ES module declarations (as test/helpers/viem.ts does).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { keccak256: viemKeccak }: typeof Viem = require("viem");

describe("keccak256", () => {
  test("matches viem's (@noble/hashes) at every padding boundary of the 136-byte rate", () => {
    for (const length of [0, 1, 55, 135, 136, 137, 271, 272, 273, 1000]) {
      const data = new Uint8Array(length).map((_, i) => (i * 31 + length) & 0xff);
      expect(`0x${Buffer.from(keccak256(data)).toString("hex")}`).toBe(viemKeccak(data));
    }
  });
});

describe("EIP-55 checksums", () => {
  // The examples of EIP-55 itself.
  const examples = [
    "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
    "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
    "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
    "0x52908400098527886E0F7030069857D2E4169EE7",
    "0x8617E340B3D01FA5F11F306F4090FD50E238070D",
    "0xde709f2102306220921060314715629080e2fb77",
    "0x27b1fdb04752bbc536007a920d24acb045561c26",
  ];

  test.each(examples)("%s is its own checksummed spelling and passes the check", (address) => {
    expect(toChecksumAddress(address.toLowerCase())).toBe(address);
    expect(toChecksumAddress(address.toUpperCase().replace("0X", "0x"))).toBe(address);
    expect(addressChecksumProblem(address)).toBeUndefined();
  });

  test("a mixed-case address with one letter in the wrong case fails, and the error gives the right spelling", () => {
    expect(addressChecksumProblem("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD")).toMatch(/fails its EIP-55 checksum.*0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed/);
  });

  test("what is not an address is rejected by name", () => {
    expect(() => toChecksumAddress("0x1234")).toThrow(/"0x1234" is not an address: use 0x followed by 40 hex digits/);
    expect(addressChecksumProblem("hello")).toMatch(/is not an address/);
  });
});
