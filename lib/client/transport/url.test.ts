import { InsecureUrlError, ClientConfigError } from "../errors";
import { buildPath, parseBaseUrl } from "./url";

describe("parseBaseUrl", () => {
  it("accepts https anywhere and http on loopback", () => {
    expect(parseBaseUrl("https://api.example.com/base/")).toEqual({ origin: "https://api.example.com", prefix: "/base" });
    expect(parseBaseUrl("http://127.0.0.1:8787")).toEqual({ origin: "http://127.0.0.1:8787", prefix: "" });
    expect(parseBaseUrl("http://[::1]:8787").origin).toBe("http://[::1]:8787");
  });
  it("refuses plain http to any other host", () => {
    expect(() => parseBaseUrl("http://api.example.com")).toThrow(InsecureUrlError);
    expect(() => parseBaseUrl("http://192.168.1.2:8787")).toThrow(InsecureUrlError);
  });
  it("refuses credentials in the URL, other schemes and garbage", () => {
    expect(() => parseBaseUrl("https://key@api.example.com")).toThrow(ClientConfigError);
    expect(() => parseBaseUrl("ftp://api.example.com")).toThrow(ClientConfigError);
    expect(() => parseBaseUrl("not a url")).toThrow(ClientConfigError);
  });
});

describe("buildPath", () => {
  it("joins prefix, path and the defined query values", () => {
    expect(buildPath("/base", "/v1/x", { page: 2, perPage: undefined, status: "failed" })).toBe("/base/v1/x?page=2&status=failed");
    expect(buildPath("", "/v1/x")).toBe("/v1/x");
  });
});
