/**
 * `chainform_admin_rpc`: the Admin RPC URL (and its WebSocket URL) of one Virtual Environment, as an ephemeral
 * resource. Terraform opens it at plan and at apply, hands the URLs to what refers to them (another provider's
 * configuration, a provisioner, a write-only attribute, an ephemeral output) and never writes them to a plan file
 * or to state (docs/secrets.md). The URLs come from the service's answer, as for every other resource; they never
 * appear in a diagnostic.
 */
import { ApiError, RPC_NAMES, type Environment } from "../../../client";
import { CHAIN_ID_PATTERN, parseChainId } from "../../../domain/chain";
import { at, attr, defineEphemeralResource, defineSchema, isKnown, validator } from "../../framework";
import { reportError } from "../errors";
import { requireProject, type ChainformProviderData } from "../provider-data";

const chainIdText = validator(`a chain id in decimal (${CHAIN_ID_PATTERN}), e.g. "1"`, (text: string) => {
  const parsed = parseChainId(text);
  return "error" in parsed ? parsed.error : undefined;
});

/** The ephemeral resource's schema. */
export const adminRpcSchema = defineSchema({
  version: 0,
  description:
    "The Admin RPC URL of one Virtual Environment, without keeping it: an ephemeral resource (Terraform 1.10 and later) is opened at plan and apply and never written to a plan file or state. Give the environment and either the forked network's id or the Virtual Environment's id. Use it where Terraform takes ephemeral values: another provider's configuration, provisioners and connection blocks, write-only attributes, ephemeral variables and outputs of modules.",
  attributes: {
    // Required
    environment_id: attr.string({ description: "Identifier of the environment (chainform_environment.<name>.id).", required: true }),
    // Optional
    network_id: attr.string({
      description:
        'Chain id of the forked network whose Virtual Environment to use, as a decimal string (e.g. "1"). Set this or vnet_id; filled in when vnet_id is given.',
      optional: true,
      computed: true,
      validators: [chainIdText],
    }),
    vnet_id: attr.string({
      description:
        "Identifier of the Virtual Environment (chainform_environment.<name>.vnets[<index>].id). Set this or network_id; filled in when network_id is given.",
      optional: true,
      computed: true,
    }),
    // Computed
    url: attr.string({
      description:
        "The Admin RPC URL: every JSON-RPC method, cheatcodes included. A secret: anyone holding it can change the chain's state.",
      computed: true,
      sensitive: true,
    }),
    websocket_url: attr.string({
      description: "The Admin RPC over WebSocket (ws://, or wss:// over TLS), for subscriptions; null when the service offers none.",
      computed: true,
      sensitive: true,
    }),
  },
});

/** The ephemeral resource. */
export const adminRpc = defineEphemeralResource<typeof adminRpcSchema, ChainformProviderData>({
  typeName: "chainform_admin_rpc",
  schema: adminRpcSchema,

  validate({ config, diagnostics }) {
    const network = config.network_id;
    const vnet = config.vnet_id;
    if (!isKnown(network) && network !== null) return;
    if (!isKnown(vnet) && vnet !== null) return;
    if (network === null && vnet === null) {
      diagnostics.error(
        "Which Virtual Environment?",
        'Set network_id (the forked network\'s chain id, e.g. "1") or vnet_id (chainform_environment.<name>.vnets[<index>].id).',
        at("network_id"),
      );
    } else if (network !== null && vnet !== null) {
      diagnostics.error(
        "Conflicting arguments",
        "Set network_id or vnet_id, not both: each names the Virtual Environment on its own.",
        at("vnet_id"),
      );
    }
  },

  async open({ config, providerData: data, diagnostics }) {
    if (!requireProject(data, diagnostics, "open the Admin RPC")) return undefined;
    let environment: Environment;
    try {
      environment = await data.client.getEnvironment({ environmentId: config.environment_id });
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        diagnostics.error(
          "No such environment",
          `Project ${data.accountSlug}/${data.projectSlug} has no environment ${config.environment_id}. Use chainform_environment.<name>.id.`,
          at("environment_id"),
        );
        return undefined;
      }
      reportError(diagnostics, data, error, { action: "open the Admin RPC", path: at("environment_id") });
      return undefined;
    }
    const vnets = environment.active_instance?.vnets ?? [];
    const networkOf = (vnet: (typeof vnets)[number]) => String(vnet.fork_config?.network_id ?? "");
    const vnet =
      config.vnet_id !== null ? vnets.find((v) => v.id === config.vnet_id) : vnets.find((v) => networkOf(v) === config.network_id);
    if (!vnet) {
      const listed = vnets.map((v) => `${v.id} (network ${networkOf(v)})`).join(", ") || "none";
      const [what, path] =
        config.vnet_id !== null
          ? [`Virtual Environment ${config.vnet_id}`, at("vnet_id")]
          : [`a Virtual Environment of network ${config.network_id}`, at("network_id")];
      diagnostics.error(
        "No such Virtual Environment",
        `Environment ${environment.id} has no ${what}; its Virtual Environments are ${listed}.`,
        path,
      );
      return undefined;
    }
    const rpcs = Array.isArray(vnet.rpcs) ? vnet.rpcs : [];
    const url = rpcs.find((rpc) => rpc.name === RPC_NAMES.admin)?.url;
    if (!url) {
      diagnostics.error(
        "The service did not give the Admin RPC",
        `The answer for Virtual Environment ${vnet.id} holds no Admin RPC URL: the service leaves it out for credentials that may not write (a read-only key). Use the ${data.credential ?? "credentials"} of a project member who may write.`,
        at(config.vnet_id !== null ? "vnet_id" : "network_id"),
      );
      return undefined;
    }
    return {
      result: {
        environment_id: config.environment_id,
        network_id: networkOf(vnet),
        vnet_id: vnet.id,
        url,
        // Null (the schema's description says so) when the service lists no WebSocket URL.
        websocket_url: rpcs.find((rpc) => rpc.name === RPC_NAMES.adminWebsocket)?.url ?? (null as never),
      },
    };
  },
});
