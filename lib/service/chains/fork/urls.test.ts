import { forkUrlsFromEnv, parseForkUrls, secretPartsOf, upstreamScrubber } from "./urls";

test("NETWORK_ID=URL entries: later ones win; CHAINFORM_FORK_URLS is comma-separated", () => {
  expect(parseForkUrls(["1=https://eth.example/v2/KEY", "8453=http://127.0.0.1:8545", "1=https://other.example/KEY2"])).toEqual({
    "1": "https://other.example/KEY2",
    "8453": "http://127.0.0.1:8545",
  });
  expect(forkUrlsFromEnv("1=https://a.example/K, 10=https://b.example/K")).toEqual({
    "1": "https://a.example/K",
    "10": "https://b.example/K",
  });
  expect(forkUrlsFromEnv(undefined)).toEqual({});
});

test("a malformed entry names its place and network, never its URL", () => {
  expect(() => parseForkUrls(["mainnet=https://eth.example/SECRET"])).toThrow(/^--fork entry 1 must be NETWORK_ID=URL/);
  expect(() => parseForkUrls(["1=https://ok.example", "2=ftp://x.example/SECRET"])).toThrow(
    "--fork entry 2 (network 2) must be an http:// or https:// URL",
  );
  expect(() => forkUrlsFromEnv("1=not a url SECRET")).toThrow('CHAINFORM_FORK_URLS entry 1 (network 1) has no valid URL after "="');
  for (const bad of [["mainnet=https://eth.example/SECRET"], ["2=ftp://x.example/SECRET"], ["1=not a url SECRET"]]) {
    expect(() => parseForkUrls(bad)).toThrow(expect.objectContaining({ message: expect.not.stringContaining("SECRET") }));
  }
});

test("the key-like parts of an upstream URL: key path segments, host labels, credentials and query values, not words", () => {
  expect(secretPartsOf("https://eth-mainnet.g.alchemy.com/v2/AbCdEf0123456789xyz")).toEqual(["AbCdEf0123456789xyz"]);
  expect(secretPartsOf("https://mainnet.infura.io/v3/0123456789abcdef0123456789abcdef")).toEqual(["0123456789abcdef0123456789abcdef"]);
  expect(secretPartsOf("https://user:pa55word@rpc.example/mainnet?apikey=k3y123&json=1")).toEqual(["pa55word", "k3y123", "user"]);
  expect(secretPartsOf("https://a1b2c3d4e5.quiknode.pro/")).toEqual(["a1b2c3d4e5"]);
  expect(secretPartsOf("http://127.0.0.1:8545/")).toEqual([]);
});

test("the scrubber takes out the URL and each key-like part, whatever the case it is echoed in", () => {
  const scrub = upstreamScrubber("https://rpc.example/v2/sk-4d1f9c2e7b?apikey=q9w8e7r6", "1");
  expect(scrub("at https://rpc.example/v2/sk-4d1f9c2e7b?apikey=q9w8e7r6: no")).toBe("at [upstream of network 1]: no");
  expect(scrub("key SK-4D1F9C2E7B and Q9W8E7R6")).toBe("key [redacted] and [redacted]");
});
