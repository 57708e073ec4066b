import { toState } from "./snapshot";

describe("chainform_snapshot state", () => {
  it("carries the revert recipe as a JSON-RPC request and a cast command, without any URL", () => {
    const state = toState({ environment_id: "e", vnet_id: "v", triggers: { token: "x" } }, "0x3", 12);
    expect(state).toEqual({
      environment_id: "e",
      vnet_id: "v",
      triggers: { token: "x" },
      id: "0x3",
      block_number: 12,
      revert_request: '{"jsonrpc":"2.0","id":1,"method":"evm_revert","params":["0x3"]}',
      revert_command: 'cast rpc evm_revert 0x3 --rpc-url "$ADMIN_RPC_URL"',
    });
  });
});
