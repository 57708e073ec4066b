// Run under `chainform exec` with HOME holding ~/.tenderly/config.yaml: the api-client's TenderlyService methods that
// ask who and where (getNetworks, getLatestBlockNumber, getPrincipal, getProjectSlugs), unchanged. One JSON line out.
import { TenderlyService } from "@tenderly/api-client";

async function main(): Promise<void> {
  const service = new TenderlyService("chainform-test");
  const networks = await service.getNetworks();
  const mainnet = networks.find((network) => network.ethereum_network_id === "1");
  const latest = await service.getLatestBlockNumber("1");
  const principal = await service.getPrincipal();
  const projects = principal ? await service.getProjectSlugs(principal.id) : [];
  const out = {
    networks: networks.length,
    mainnet: mainnet && { slug: mainnet.slug, name: mainnet.name, keys: Object.keys(mainnet).sort() },
    latest,
    principal,
    projects: projects.map((project: { slug: string }) => project.slug).sort(),
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
  process.exit(0);
}

main().catch((error: { stack?: string }) => {
  process.stderr.write(`${error?.stack}\n`);
  process.exit(1);
});
