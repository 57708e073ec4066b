import { forkUrlsFromEnv, parseForkUrls } from "./urls";

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
