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

const url = process.env.VNET_RPC_URL ?? "";
const chainId = Number(process.env.VNET_CHAIN_ID);
// hardhat-verify's config, two ways that reach the vnet's verifier (docs/hosted-clients.md "Hardhat"): written out as
// Tenderly documents for a Virtual TestNet, or left to hardhat-tenderly's automatic population with the key keyed by
// network (a single string key, its default, makes hardhat-verify 2.1 send every chain to Etherscan's own v2 API).
const etherscan =
  process.env.VERIFY_CONFIG === "documented"
    ? {
        apiKey: { tenderly: process.env.TENDERLY_ACCESS_KEY ?? "" },
        customChains: [{ network: "tenderly", chainId, urls: { apiURL: `${url}/verify/etherscan`, browserURL: url } }],
      }
    : process.env.VERIFY_CONFIG === "populated"
      ? { apiKey: {} }
      : undefined;

export default {
  solidity: require("solc").version().split("+")[0],
  networks: { tenderly: { url, chainId, accounts: [process.env.DEPLOYER_KEY ?? "0x" + "11".repeat(32)] } },
  tenderly: { username: "acme", project: "demo", privateVerification: true },
  ...(etherscan ? { etherscan } : {}),
};
