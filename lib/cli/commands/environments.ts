/**
 * `chainform environments [--json] [--show-secrets]`: the environments of the project, newest first. Admin RPC URLs
 * show only with --show-secrets (the one way to get those of an imported or cloned environment from the CLI).
 */
import type { Environment } from "../../client";
import { lookupCommand } from "../lookup-command";
import { listAllEnvironments } from "../project-environments";

export default lookupCommand({
  name: "environments",
  summary: "list the project's environments (CHAINFORM_ACCOUNT/CHAINFORM_PROJECT), newest first",
  noun: "environments",
  notes:
    "Uses CHAINFORM_BASE_URL, CHAINFORM_ACCESS_KEY (or CHAINFORM_BEARER_TOKEN), CHAINFORM_ACCOUNT and CHAINFORM_PROJECT.\nAdmin RPC URLs are left out (they are secrets) unless --show-secrets: Terraform outputs carry them too, but an\nimported or cloned environment has them only here.",
  fetch: listAllEnvironments,
  headers: ["SLUG", "NAME", "NETWORKS", "CREATED", "ID"],
  row: (e) => [e.slug, e.display_name, e.networks.map((n) => n.network_id).join(","), e.created_at, e.id],
  json: (environments) => environments.map(withoutAdminRpcUrls),
  secrets: {
    header: "ADMIN RPC URLS",
    cell: (e) =>
      e.active_instance.vnets.flatMap((v) => v.rpcs.filter((rpc) => rpc.name.startsWith("Admin")).map((rpc) => rpc.url)).join(" "),
    json: (environments) => environments,
  },
});

/** The environment with every Admin RPC entry removed from its Virtual Environments. */
export function withoutAdminRpcUrls(environment: Environment): Environment {
  return {
    ...environment,
    active_instance: {
      ...environment.active_instance,
      vnets: environment.active_instance.vnets.map((vnet) => ({ ...vnet, rpcs: vnet.rpcs.filter((rpc) => !rpc.name.startsWith("Admin")) })),
    },
  };
}
