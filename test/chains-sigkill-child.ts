/**
 * Child process of chains-engine.test.ts: a stand-in service that starts two chains, prints their process ids
 * as one JSON line, and waits to be SIGKILLed.
 */
import { createAnvilEngine } from "../lib/service/chains";
import { TestChainHost } from "./chains-host";

async function main(): Promise<void> {
  const host = new TestChainHost(process.argv[2]);
  const engine = createAnvilEngine(host);
  const vnets = host.createEnvironment([{ networkId: "1" }, { networkId: "10" }]);
  const pids: number[] = [];
  for (const vnet of vnets) {
    await engine.rpc(vnet.vnetId, { jsonrpc: "2.0", id: 1, method: "eth_chainId" }, "admin");
    pids.push(...engine.runningNode(vnet.vnetId)!.pids);
  }
  process.stdout.write(`${JSON.stringify({ pids })}\n`);
  setInterval(() => undefined, 60_000);
}

void main();
