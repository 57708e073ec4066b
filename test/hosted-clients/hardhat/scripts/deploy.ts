import { ContractFactory } from "ethers";
import { artifacts, ethers, tenderly } from "hardhat";

async function main(): Promise<void> {
  const first = await (await ethers.deployContract("Counter")).waitForDeployment();
  const second = await (await ethers.deployContract("Counter")).waitForDeployment();
  await tenderly.verify({ name: "Counter", address: await second.getAddress() });
  // Deployed past the plugin's wrapped factories, so no automatic verification: left for `hardhat verify`.
  const { abi, bytecode } = await artifacts.readArtifact("Counter");
  const [signer] = await ethers.getSigners();
  const third = await (await new ContractFactory(abi, bytecode, signer).deploy()).waitForDeployment();
  const fourth = await (await new ContractFactory(abi, bytecode, signer).deploy()).waitForDeployment();
  const addresses = await Promise.all([first, second, third, fourth].map((contract) => contract.getAddress()));
  console.log(`ADDRESSES ${addresses.join(" ")}`);
}
main().catch((error) => {
  console.error(error);
  process.exit(1);
});
