import { ethers, tenderly } from "hardhat";

async function main(): Promise<void> {
  const first = await (await ethers.deployContract("Counter")).waitForDeployment();
  const second = await (await ethers.deployContract("Counter")).waitForDeployment();
  await tenderly.verify({ name: "Counter", address: await second.getAddress() });
  const third = await (await ethers.deployContract("Counter")).waitForDeployment();
  console.log(`ADDRESSES ${await first.getAddress()} ${await second.getAddress()} ${await third.getAddress()}`);
}
main().catch((error) => {
  console.error(error);
  process.exit(1);
});
