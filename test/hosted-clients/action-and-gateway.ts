// Run under `chainform exec`: the vnet GitHub Action's exact requests (create, then PATCH stopped, with axios as its
// source sends them), the variables a workflow would get, a Web3 Action run by @tenderly/actions-test reading a chain
// through its gateway URL with ethers and calling the API, and the SDK's error type reading the local error body.
// Prints one JSON line.
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
  // As the Action's run() does with network_id "1\n8453", chain_id_prefix 7357, in a workflow named "CI / Deploy".
  const networkIds = ["1", "8453"];
  const context = { runNumber: 12, runId: 13201840357, workflow: "CI / Deploy", job: "deploy" };
  await Promise.all(
    networkIds.map(async (networkId) => {
      const generated = `${context.runNumber}-CI Virtual TestNet-net-${networkId}-${context.workflow}-${context.job}-${context.runId}`
        .toLowerCase()
        .trim()
        .replace(/\s+/g, "-")
        .replace(/\//g, "-")
        .replace(/[^a-z0-9-]/g, "");
      const slug = `${generated
        .toLowerCase()
        .trim()
        .replace(/\s+/g, "-")
        .replace(/[^a-z0-9-]/g, "")}-${Math.floor(Date.now() / 1000)}`;
      const chainId = parseInt(`7357${networkId}`);
      const { data } = await axios.post(
        `${API}/account/${process.env.CHAINFORM_ACCOUNT}/project/${process.env.CHAINFORM_PROJECT}/vnets`,
        {
          slug,
          display_name: generated,
          fork_config: { network_id: parseInt(networkId), block_number: "latest" },
          virtual_network_config: { chain_config: { chain_id: parseInt(chainId.toString()) } },
          sync_state_config: { enabled: false },
          explorer_page_config: { enabled: false, verification_visibility: "bytecode" },
        },
        { headers },
      );
      const admin = data.rpcs.find((rpc: Rpc) => rpc.name === "Admin RPC").url;
      Object.assign(out.variables, {
        [`TENDERLY_TESTNET_ID_${networkId}`]: data.id,
        [`TENDERLY_ADMIN_RPC_URL_${networkId}`]: admin,
        [`TENDERLY_PUBLIC_RPC_URL_${networkId}`]: data.rpcs.find((rpc: Rpc) => rpc.name === "Public RPC").url,
        [`TENDERLY_TESTNET_SLUG_${networkId}`]: generated,
        [`TENDERLY_CHAIN_ID_${networkId}`]: String(chainId),
        [`TENDERLY_FOUNDRY_VERIFICATION_URL_${networkId}`]: `${admin}/verify/etherscan`,
      });
      // The workflow's own steps use the Admin RPC URL as it was handed out.
      const provider = new ethers.JsonRpcProvider(admin, undefined, { staticNetwork: true });
      await provider.send("tenderly_setBalance", ["0x000000000000000000000000000000000000bEEF", "0x2a"]);
      out.results[`balance_${networkId}`] = (await provider.getBalance("0x000000000000000000000000000000000000bEEF")).toString();
      out.results[`chainId_${networkId}`] = (await provider.getNetwork()).chainId.toString();
    }),
  );
  // The post step (mode CI): PATCH {status: "stopped"} for each, all settled.
  const stopped = await Promise.allSettled(
    networkIds.map((networkId) =>
      axios.patch(
        `${API}/account/${process.env.CHAINFORM_ACCOUNT}/project/${process.env.CHAINFORM_PROJECT}/vnets/${out.variables[`TENDERLY_TESTNET_ID_${networkId}`]}`,
        { status: "stopped" },
        { headers },
      ),
    ),
  );
  stopped.forEach((result, index) => {
    out.results[`status_${networkIds[index]}`] = result.status === "fulfilled" ? result.value.data.status : String(result.reason);
  });
  // A stopped vnet's RPC URL refuses, saying why (one plain call: a provider would retry its network detection).
  const refused = await fetch(out.variables.TENDERLY_ADMIN_RPC_URL_1, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
  });
  const refusal = (await refused.json()) as { error: { message: string } };
  out.results.stoppedAnswer = { status: refused.status, message: refusal.error.message };

  // A Web3 Action under @tenderly/actions-test: reads mainnet through its gateway, calls the API with the access key
  // from its secrets, and is refused a send on the gateway (read-only), as ethers reports it.
  const runtime = new TestRuntime();
  runtime.context.gateways.setConfig("", { accessKey: key });
  runtime.context.secrets.put("TENDERLY_ACCESS_KEY", key);
  out.results.gatewayBlock = await runtime.execute(async (context: Context) => {
    const provider = new ethers.JsonRpcProvider(context.gateways.getGateway(GatewayNetwork.MAINNET), undefined, { staticNetwork: true });
    const accessKey = await context.secrets.get("TENDERLY_ACCESS_KEY");
    const vnets = await axios.get(`${API}/account/me/project/${process.env.CHAINFORM_PROJECT}/vnets`, {
      headers: { "X-Access-Key": accessKey },
    });
    let sendRefused = "";
    try {
      await provider.send("eth_sendRawTransaction", ["0x02"]);
    } catch (error: unknown) {
      // ethers keeps the node's JSON-RPC error as `info.error`.
      sendRefused = String((error as { info?: { error?: { message?: string } } }).info?.error?.message ?? error);
    }
    return {
      chainId: (await provider.getNetwork()).chainId.toString(),
      block: await provider.getBlockNumber(),
      vnets: (vnets.data as unknown[]).length,
      sendRefused,
    };
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
