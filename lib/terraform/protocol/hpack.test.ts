import { encodeHeaders, HpackDecoder, HpackError, huffmanDecode, type HeaderField } from "./hpack";

const hex = (text: string): Buffer => Buffer.from(text.replace(/\s+/g, ""), "hex");
// All 256 byte values in order, Huffman-coded by the Python hpack package (an independent implementation).
const ALL_BYTES_HUFFMAN = [
  "ffc7fffd8fffffe2fffffe3fffffe4fffffe5fffffe6fffffe7fffffe8ffffeafffffff3fffffa7fffffabffffffdfffffebfffffecfffff",
  "edfffffeefffffefffffff0ffffff1ffffff2fffffffbfffffcffffffd3fffffd7fffffdbfffffdffffffe3fffffe7fffffebfffffed4fe3",
  "f9ffaffcabf1febfafefe7fdfd2cbb00089969b71d79fb9f7fff20ffbff3ff50ddbd7f061c58f265cd9f469d5af66dddbf871e5f9cff7ff7",
  "fffc3ff9ffe45fff4719242cb34e6e9d68a6a3d7dac426defe3cfaf7fffbfe7ffbffdffffffcfffe6ffff4bfff9ffffa3fffd3ffff53fffd",
  "5ffffb3fffeb7fffdaffffb7ffff73fffeeffffdeffffebffffbfffffd9ffffdbfffebffffe0ffffeeffffc3ffff8bffff1ffffe4fffee7f",
  "ffb1ffff97fffd9ffffcdffff9fffffbffffdafffeeffff4ffffb7fffee7fffe8ffffd3fffdeffffd5fffeeffffbdffffe1fffdfffff7fff",
  "ff5ffffecffff07fff87fffe0ffff17fffedffff87ffff77fffeffffeaffff8bfffe3ffff93ffff87fffcbffff37ffff1fffff83ffffe1ff",
  "febfffe3ffff3fffff2ffffa3ffffd9fffff17ffffc7fffff27ffffdefffffbffffff2fffff8fffffb7fff97fff8fffffe6fffffc1fffff8",
  "7ffffe7fffffc5ffffe5fffe4ffff2fffffd1fffff4ffffffefffffe3fffffc9fffff97fffb3ffffcffffb7fffcdffff4ffff9ffffd1ffff",
  "cffffeaffffafffffddffffeffffff4fffff5fffffabffffa7ffffd7fffff9bffffecfffffb7fffff3fffffe8fffffd3fffffabfffff5fff",
  "ffff7ffffecfffffdbfffffbbfffff7ffffff0fffffbbf",
].join("");

describe("HPACK decoder: RFC 7541 Appendix C", () => {
  test("C.4: three requests with Huffman coding, sharing one dynamic table", () => {
    const decoder = new HpackDecoder();
    expect(decoder.decode(hex("8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff"))).toEqual([
      [":method", "GET"],
      [":scheme", "http"],
      [":path", "/"],
      [":authority", "www.example.com"],
    ]);
    expect(decoder.decode(hex("8286 84be 5886 a8eb 1064 9cbf"))).toEqual([
      [":method", "GET"],
      [":scheme", "http"],
      [":path", "/"],
      [":authority", "www.example.com"],
      ["cache-control", "no-cache"],
    ]);
    expect(decoder.decode(hex("8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf"))).toEqual([
      [":method", "GET"],
      [":scheme", "https"],
      [":path", "/index.html"],
      [":authority", "www.example.com"],
      ["custom-key", "custom-value"],
    ]);
  });

  test("C.6: three responses in a 256-byte table, with evictions", () => {
    const decoder = new HpackDecoder(256);
    const common: HeaderField[] = [["cache-control", "private"]];
    expect(
      decoder.decode(
        hex(`4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6 2d1b ff6e 919d 29ad 1718
             63c7 8f0b 97c8 e9ae 82ae 43d3`),
      ),
    ).toEqual([[":status", "302"], ...common, ["date", "Mon, 21 Oct 2013 20:13:21 GMT"], ["location", "https://www.example.com"]]);
    expect(decoder.decode(hex("4883 640e ffc1 c0bf"))).toEqual([
      [":status", "307"],
      ...common,
      ["date", "Mon, 21 Oct 2013 20:13:21 GMT"],
      ["location", "https://www.example.com"],
    ]);
    expect(
      decoder.decode(
        hex(`88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab 77ad 94e7 821d d7f2 e6c7
             b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f 9587 3160 65c0 03ed 4ee5 b106 3d50 07`),
      ),
    ).toEqual([
      [":status", "200"],
      ...common,
      ["date", "Mon, 21 Oct 2013 20:13:22 GMT"],
      ["location", "https://www.example.com"],
      ["content-encoding", "gzip"],
      ["set-cookie", "foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1"],
    ]);
  });

  test("literals without indexing and never indexed leave the table alone; a size update empties it", () => {
    const decoder = new HpackDecoder();
    // 0x04 0x0c "/sample/path": literal without indexing, name :path (C.2.2); 0x10: never indexed, new name (C.2.3)
    expect(decoder.decode(hex("040c 2f73 616d 706c 652f 7061 7468 1008 7061 7373 776f 7264 0673 6563 7265 74"))).toEqual([
      [":path", "/sample/path"],
      ["password", "secret"],
    ]);
    expect(() => decoder.decode(hex("be"))).toThrow(/index 62 beyond the table/);
    decoder.decode(hex("400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572")); // C.2.1, indexed
    expect(decoder.decode(hex("be"))).toEqual([["custom-key", "custom-header"]]);
    decoder.decode(hex("20")); // table size 0: everything evicted
    expect(() => decoder.decode(hex("be"))).toThrow(HpackError);
  });
});

describe("HPACK decoder: malformed blocks are HpackErrors, never wrong headers", () => {
  test.each([
    ["index 0", "80"],
    ["a string longer than the block", "0003 6162"],
    ["an integer that never ends", "7fff ffff ff"],
    ["a table size above what we allow", "3fe2 1f"],
    ["Huffman padding that is not all ones", "0081 00"],
  ])("%s", (_name, block) => {
    expect(() => new HpackDecoder().decode(hex(block))).toThrow(HpackError);
  });

  test("Huffman: every byte value decodes, EOS and over-long padding do not", () => {
    // "www.example.com" (C.4.1), and a code of 30 ones (EOS) followed by padding.
    expect(huffmanDecode(hex("f1e3 c2e5 f23a 6ba0 ab90 f4ff"))).toBe("www.example.com");
    expect(huffmanDecode(hex(ALL_BYTES_HUFFMAN))).toBe(Buffer.from(Array.from({ length: 256 }, (_, i) => i)).toString("latin1"));
    expect(() => huffmanDecode(hex("ffff ffff"))).toThrow(/EOS/);
    expect(() => huffmanDecode(hex("1fff"))).toThrow(/padding/); // "a" (00011) then 11 bits of padding
  });
});

describe("HPACK encoder", () => {
  test("what it writes decodes back; static entries with their value are one byte", () => {
    const fields: HeaderField[] = [
      [":status", "200"],
      ["content-type", "application/grpc"],
      ["grpc-status", "13"],
      ["grpc-message", "x".repeat(300)],
    ];
    const block = encodeHeaders(fields);
    expect(block[0]).toBe(0x88);
    expect(new HpackDecoder().decode(block)).toEqual(fields);
  });
});
