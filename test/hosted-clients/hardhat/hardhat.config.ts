import { subtask } from "hardhat/config";
import { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } from "hardhat/builtin-tasks/task-names";
import "@nomicfoundation/hardhat-ethers";
import * as tenderly from "@tenderly/hardhat-tenderly";

tenderly.setup({ automaticVerifications: true });

// The solc-js chainform ships: nothing is downloaded.
subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD).setAction(async () => {
  const solc = require("solc");
  return {
    compilerPath: require.resolve("solc/soljson.js"),
    isSolcJs: true,
    version: solc.version().split("+")[0],
    longVersion: solc.version().replace(".Emscripten.clang", ""),
  };
});

export default {
  solidity: require("solc").version().split("+")[0],
  networks: { tenderly: { url: process.env.VNET_RPC_URL ?? "", accounts: [process.env.DEPLOYER_KEY ?? "0x" + "11".repeat(32)] } },
  tenderly: { username: "acme", project: "demo", privateVerification: true },
};
