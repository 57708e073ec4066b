/** The engine's decoding: the domain's decoder with the bridge's ABI, which is the contract's own at its address. */
import { BRIDGE_ADDRESS } from "../../../domain/bridge-contract";
import { decodeCall, decodeLogs } from "./abi";
import { loadArtifact } from "./artifacts";
import { encodeFunctionData, type Abi, type Hex } from "./viem";

const viem = require("viem") as typeof import("viem", { with: { "resolution-mode": "import" } });
const bridge = loadArtifact("ChainformBridge").abi as Abi;
const RECIPIENT = viem.getAddress(`0x${"ab".repeat(20)}`);

test("a deposit to the bridge reads with the bridge's names; the same selector elsewhere is ERC-4626's", () => {
  const input = encodeFunctionData({ abi: bridge, functionName: "deposit", args: [5n, RECIPIENT] });
  const depositId = `0x${"12".repeat(32)}`;
  // The bridge's address in capitals: the address is matched whatever its case.
  const atBridge = decodeCall(input, depositId, true, BRIDGE_ADDRESS.toUpperCase().replace("0X", "0x"));
  expect(atBridge).toEqual({
    method: "deposit",
    decodedInput: [
      { name: "destinationChainId", type: "uint256", value: "5" },
      { name: "recipient", type: "address", value: RECIPIENT.toLowerCase() },
    ],
    decodedOutput: [{ name: "depositId", type: "bytes32", value: depositId }],
  });
  const elsewhere = decodeCall(input, undefined, false, `0x${"cd".repeat(20)}`);
  expect(elsewhere.decodedInput.map((argument) => argument.name)).toEqual(["assets", "receiver"]);
  expect(decodeCall(input, undefined, false, undefined).method).toBe("deposit");
});

test("the bridge's events are named wherever they come from, after the standard interfaces", () => {
  const deposited = bridge.find((item) => item.type === "event" && item.name === "Deposited")!;
  const topics = viem.encodeEventTopics({
    abi: [deposited],
    args: { depositId: `0x${"34".repeat(32)}` as Hex, destinationChainId: 2n, sender: RECIPIENT },
  } as never) as Hex[];
  const data = viem.encodeAbiParameters([{ type: "address" }, { type: "uint256" }], [RECIPIENT, 7n]);
  const [log] = decodeLogs([{ address: RECIPIENT, topics, data }]);
  expect([log!.name, log!.inputs.map((input) => [input.name, input.value])]).toEqual([
    "Deposited",
    [
      ["depositId", `0x${"34".repeat(32)}`],
      ["destinationChainId", "2"],
      ["sender", RECIPIENT.toLowerCase()],
      ["recipient", RECIPIENT.toLowerCase()],
      ["amount", "7"],
    ],
  ]);
});
