// Run under `chainform exec` (the service it starts): creates a vnet through the hosted API and calls it through a
// region host, `virtual.mainnet.{region}.rpc.tenderly.co`, with fetch and with https, unchanged. One JSON line out.
import https from "node:https";

const env = (name: string): string => process.env[name] ?? "";

async function main(): Promise<void> {
  const created = await fetch(`https://api.tenderly.co/api/v1/account/me/project/${env("CHAINFORM_PROJECT")}/vnets`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-access-key": env("CHAINFORM_ACCESS_KEY") },
    body: JSON.stringify({
      slug: "region-testnet",
      display_name: "Region TestNet",
      fork_config: { network_id: 1, block_number: "latest" },
      virtual_network_config: { chain_config: { chain_id: 73575 } },
    }),
  });
  const vnet = (await created.json()) as { rpcs: { name: string; url: string }[] };
  const admin = vnet.rpcs.find((rpc) => rpc.name === "Admin RPC")!.url;
  const out: Record<string, unknown> = { admin: admin.replace(/[^/]+$/, "{key}") };
  for (const region of ["eu", "us-east"]) {
    const url = admin.replace(".mainnet.rpc.", `.mainnet.${region}.rpc.`);
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] });
    const viaFetch = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
    out[`fetch_${region}`] = ((await viaFetch.json()) as { result: string }).result;
    out[`https_${region}`] = await new Promise<string>((resolve, reject) => {
      const request = https.request(url, { method: "POST", headers: { "content-type": "application/json" } }, (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => (text += chunk.toString()));
        response.on("end", () => resolve((JSON.parse(text) as { result: string }).result));
      });
      request.on("error", reject);
      request.end(body);
    });
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

main().catch((error: { stack?: string }) => {
  process.stderr.write(`${error?.stack}\n`);
  process.exit(1);
});
