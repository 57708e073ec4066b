// Run under `chainform exec`: the vnet GitHub Action's exact requests (create, then PATCH stopped, with axios as its
// source sends them), the variables a workflow would get, a Web3 Action run by @tenderly/actions-test reading a chain
// through its gateway URL with ethers, and the SDK's error type reading the local error body. Prints one JSON line.
import axios from "axios";
import { ethers } from "ethers";
import { Network as GatewayNetwork, type Context } from "@tenderly/actions";
import { TestRuntime } from "@tenderly/actions-test";
import { ApiError, Network, Tenderly } from "@tenderly/sdk";

/** An rpcs entry of a vnet. */
interface Rpc {
  name: string;
  url: string;
}

const API = "https://api.tenderly.co/api/v1";
const key = process.env.CHAINFORM_ACCESS_KEY!;
const headers = { Accept: "application/json", "Content-Type": "application/json", "X-Access-Key": key };

async function main() {
  const out: { variables: Record<string, string>; results: Record<string, unknown> } = { variables: {}, results: {} };
  const networks = [1, 8453];
  let n = 0;
  for (const networkId of networks) {
    n++;
    const slug = `ci-virtual-testnet-${networkId}-${Math.floor(Date.now() / 1000)}`;
    const { data } = await axios.post(
      `${API}/account/${process.env.CHAINFORM_ACCOUNT}/project/${process.env.CHAINFORM_PROJECT}/vnets`,
      {
        slug,
        display_name: "CI Virtual TestNet",
        fork_config: { network_id: networkId, block_number: "latest" },
        virtual_network_config: { chain_config: { chain_id: parseInt(`7357${networkId}`) } },
        sync_state_config: { enabled: false },
        explorer_page_config: { enabled: false, verification_visibility: "bytecode" },
      },
      { headers },
    );
    const admin = data.rpcs.find((rpc: Rpc) => rpc.name === "Admin RPC").url;
    Object.assign(out.variables, {
      [`TENDERLY_TESTNET_ID_${n}`]: data.id,
      [`TENDERLY_ADMIN_RPC_URL_${n}`]: admin,
      [`TENDERLY_PUBLIC_RPC_URL_${n}`]: data.rpcs.find((rpc: Rpc) => rpc.name === "Public RPC").url,
      [`TENDERLY_TESTNET_SLUG_${n}`]: slug,
      [`TENDERLY_CHAIN_ID_${n}`]: `7357${networkId}`,
      [`TENDERLY_FOUNDRY_VERIFICATION_URL_${n}`]: `${admin}/verify/etherscan`,
    });
    // The workflow's own steps use the Admin RPC URL as it was handed out.
    const provider = new ethers.JsonRpcProvider(admin, undefined, { staticNetwork: true });
    await provider.send("tenderly_setBalance", ["0x000000000000000000000000000000000000bEEF", "0x2a"]);
    out.results[`balance_${n}`] = (await provider.getBalance("0x000000000000000000000000000000000000bEEF")).toString();
    out.results[`chainId_${n}`] = (await provider.getNetwork()).chainId.toString();
  }
  // The post step: PATCH {status: "stopped"} for each.
  for (let i = 1; i <= networks.length; i++) {
    const { data } = await axios.patch(
      `${API}/account/${process.env.CHAINFORM_ACCOUNT}/project/${process.env.CHAINFORM_PROJECT}/vnets/${out.variables[`TENDERLY_TESTNET_ID_${i}`]}`,
      { status: "stopped" },
      { headers },
    );
    out.results[`status_${i}`] = data.status;
  }
  // A stopped vnet's RPC URL refuses, saying why (one plain call: a provider would retry its network detection).
  const refused = await fetch(out.variables.TENDERLY_ADMIN_RPC_URL_1, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
  });
  const refusal = (await refused.json()) as { error: { message: string } };
  out.results.stoppedAnswer = { status: refused.status, message: refusal.error.message };

  // A Web3 Action under @tenderly/actions-test, reading mainnet through its gateway.
  const runtime = new TestRuntime();
  runtime.context.gateways.setConfig("", { accessKey: key });
  out.results.gatewayBlock = await runtime.execute(async (context: Context) => {
    const provider = new ethers.JsonRpcProvider(context.gateways.getGateway(GatewayNetwork.MAINNET), undefined, { staticNetwork: true });
    return { chainId: (await provider.getNetwork()).chainId.toString(), block: await provider.getBlockNumber() };
  }, {} as never);

  // The SDK reads the local error body as its ApiError (a project that does not exist).
  const tenderly = new Tenderly({ accessKey: key, accountName: "me", projectName: "no-such-project", network: Network.MAINNET });
  try {
    await tenderly.contracts.getAll();
    out.results.sdkError = "none";
  } catch (error: unknown) {
    out.results.sdkError = error instanceof ApiError ? `${error.status}` : String(error);
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
  process.exit(0);
}

main().catch((error: { stack?: string; response?: { data?: unknown } }) => {
  process.stderr.write(`${error?.stack}\n${JSON.stringify(error?.response?.data)}\n`);
  process.exit(1);
});
