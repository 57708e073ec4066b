/** Step 1 of the RPC pipeline: a path is decoded and split before anything decides what it names. */
import { routeRpc } from "./route";

test.each([
  ["/rpc/admin/abc", { kind: "rpc", access: "admin", key: "abc" }],
  ["/rpc/public/0b2f?x=1#y", { kind: "rpc", access: "public", key: "0b2f" }],
  ["/rpc/%61dmin/abc", { kind: "rpc", access: "admin", key: "abc" }],
  ["/%72pc/public/%30b2f", { kind: "rpc", access: "public", key: "0b2f" }],
])("%s names an RPC URL", (path, route) => {
  expect(routeRpc(path)).toEqual(route);
});

test.each([
  "/rpc/ADMIN/abc",
  "/RPC/admin/abc",
  "/rpc/admin//abc",
  "//rpc/admin/abc",
  "/rpc/admin/abc/more",
  "/rpc/admin/",
  "/rpc/admin",
  "/rpc",
  "/rpc/other/abc",
  "/rpc/admin%2Fabc",
  "/rpc/admin/%zz",
])("%s is under /rpc/ and names nothing: the RPC URLs' 404", (path) => {
  expect(routeRpc(path)).toEqual({ kind: "unknown" });
});

test.each(["/v1/supported-networks", "/rpcx/admin/abc", "/", "", "/explorer/rpc/admin/abc", "/%zz/rpc"])(
  "%s is not the RPC URLs'",
  (path) => {
    expect(routeRpc(path)).toBeNull();
  },
);
