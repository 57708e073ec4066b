/** `chainform networks [--json]`: the networks the service can fork (public endpoint, no key needed). */
import { lookupCommand } from "../lookup-command";

export default lookupCommand({
  name: "networks",
  summary: "list the networks the service supports (chain ids to use as network_id)",
  noun: "supported networks",
  notes: "Uses CHAINFORM_BASE_URL; the endpoint is public, so no key is needed.",
  fetch: (client) => client.listSupportedNetworks(),
  headers: ["CHAIN ID", "NAME", "VIRTUAL TESTNET", "SIMULATOR"],
  row: (n) => [n.chain_id, n.network_name, yesNo(n.supported_features.virtual_testnet), yesNo(n.supported_features.simulator)],
});

function yesNo(flag: boolean): string {
  return flag ? "yes" : "no";
}
