/**
 * `chainform_environment`: a multi-network environment, one Virtual Environment per `network_config`, with an
 * optional bridge between them. The service has no update endpoint, so every change of meaning replaces the
 * environment and the plan names the attribute that forces it. Changes of spelling only (`"100ether"` written as
 * `"0x56bc75e2d63100000"`, an address in other letter case) are in-place updates that call nothing.
 */
import { ApiError, isSlugConflict, type CreateEnvironmentRequest, type Environment, type NetworkConfig } from "../../../client";
import { slugify } from "../../../spec/slug";
import { ADDRESS_PATTERN, CHAIN_ID_PATTERN, parseBlockNumber, parseChainId } from "../../../spec/chain";
import {
  BRIDGE_DEFAULTS,
  bridgeFindings,
  MAX_ACCOUNTS_PER_NETWORK,
  MAX_NETWORKS_PER_ENVIRONMENT,
  MAX_RELAY_DELAY_SECONDS,
  networkListFindings,
} from "../../../spec/environment-rules";
import {
  at,
  attr,
  between,
  block,
  defineResource,
  defineSchema,
  isUnknown,
  lengthBetween,
  oneOf,
  regex,
  requiresReplace,
  requiresReplaceIf,
  useStateForUnknown,
  validator,
  type Diagnostics,
  type Model,
} from "../../framework";
import type { UnknownValue } from "../../protocol/cty/unknown";
import { BALANCE_FORMATS, canonicalHex, normalizeBalance, parseBalance, sameBalance, sameQuantity } from "../amounts";
import { environmentFieldPath, reportError } from "../errors";
import type { ChainformProviderData } from "../provider";
import { requireProject } from "../provider";
import { adminRpcUrlsAttribute, endpointsOf, publicRpcUrlsAttribute, vnetsAttribute } from "./vnets";

/** The service's limits (lib/spec): networks per environment, accounts per network, relay delay. */
const MAX_NETWORKS = MAX_NETWORKS_PER_ENVIRONMENT;
const MAX_ACCOUNTS = MAX_ACCOUNTS_PER_NETWORK;
const MAX_DELAY_SECONDS = MAX_RELAY_DELAY_SECONDS;

const balance = validator(BALANCE_FORMATS, (text: string) => {
  const parsed = parseBalance(text);
  return "error" in parsed ? parsed.error : undefined;
});
/** Chain ids and block numbers by lib/spec's rules (exact ranges: chain ids up to EIP-2294's bound, blocks up to 2^64-1). */
const chainIdText = validator(`a chain id in decimal (${CHAIN_ID_PATTERN}), e.g. "1"`, (text: string) => {
  const parsed = parseChainId(text);
  return "error" in parsed ? parsed.error : undefined;
});
const chainIdNumber = validator("a positive whole number", (n: number) => {
  const parsed = parseChainId(n);
  return "error" in parsed ? parsed.error : undefined;
});
const blockNumber = validator("a hex block number such as 0x12a05f2, at most 2^64-1", (text: string) => {
  const parsed = parseBlockNumber(text);
  return "error" in parsed ? parsed.error : undefined;
});
const wholeNumber = (min: number, max: number) =>
  validator(`a whole number from ${min} to ${max}`, (n: number) =>
    Number.isInteger(n) && n >= min && n <= max ? undefined : `${n} is not a whole number from ${min} to ${max}`,
  );
/** Replaces only when the new text means something else (a balance, a block number, an address). */
const replaceUnlessSame = (what: string, same: (a: string, b: string) => boolean) =>
  requiresReplaceIf(`a different ${what} replaces the environment; the same ${what} spelled differently does not`, ({ plan, state }) =>
    typeof plan === "string" && typeof state === "string" ? !same(plan, state) : true,
  );
const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The resource schema. */
export const environmentSchema = defineSchema({
  description:
    "A throw-away blockchain environment: one Virtual Environment (a fork of a real network with its own RPC URLs) per `network_config`, optionally bridged. There is no update: changing any argument replaces the environment.",
  attributes: {
    // Required
    display_name: attr.string({
      description: "Display name of the environment.",
      required: true,
      validators: [lengthBetween(1, 255)],
      planModifiers: [requiresReplace()],
    }),
    // Optional
    slug: attr.string({
      description: "Slug of the environment, unique in the project; derived from display_name when omitted (\"CI run 42\" → ci-run-42).",
      optional: true,
      computed: true,
      validators: [regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "lowercase letters and digits in dash-separated groups"), lengthBetween(1, 100)],
      planModifiers: [useStateForUnknown(), requiresReplace()],
    }),
    // Computed
    id: attr.string({ description: "Identifier of the environment.", computed: true, planModifiers: [useStateForUnknown()] }),
    created_at: attr.string({ description: "When the environment was created (ISO 8601).", computed: true, planModifiers: [useStateForUnknown()] }),
    instance_id: attr.string({ description: "Identifier of the environment's active instance.", computed: true, planModifiers: [useStateForUnknown()] }),
    vnets: vnetsAttribute(true),
    public_rpc_urls: publicRpcUrlsAttribute(true),
    admin_rpc_urls: adminRpcUrlsAttribute(true),
  },
  blocks: {
    network_config: block.list({
      description: "A network to fork into a Virtual Environment (1 to 16, each network at most once).",
      minItems: 1,
      maxItems: MAX_NETWORKS,
      attributes: {
        network_id: attr.string({
          description: "Chain ID of the network to fork, as a decimal string (see chainform_supported_networks).",
          required: true,
          validators: [chainIdText],
          planModifiers: [requiresReplace()],
        }),
        block_number: attr.string({
          description: "Block number to fork at, hex (0x...); defaults to the network's latest block and is then computed from the fork point.",
          optional: true,
          computed: true,
          validators: [blockNumber],
          planModifiers: [useStateForUnknown(), replaceUnlessSame("block number", sameQuantity)],
        }),
        chain_id: attr.number({
          description: "Chain ID the Virtual Environment answers with; defaults to the forked network's.",
          optional: true,
          validators: [chainIdNumber],
          planModifiers: [requiresReplace()],
        }),
      },
      blocks: {
        explorer: block.list({
          description: "Explorer settings of this network.",
          maxItems: 1,
          attributes: {
            enabled: attr.bool({ description: "Whether the explorer is enabled.", optional: true, planModifiers: [requiresReplace()] }),
            verification_visibility: attr.string({
              description: "What the explorer shows of verified contracts: bytecode, abi or source.",
              optional: true,
              validators: [oneOf(["bytecode", "abi", "source"])],
              planModifiers: [requiresReplace()],
            }),
          },
        }),
        account: block.list({
          description: "An account funded at creation (up to 100 per network).",
          maxItems: MAX_ACCOUNTS,
          attributes: {
            address: attr.string({
              description: "Account address: 0x followed by 40 hex digits (any letter case).",
              required: true,
              validators: [regex(new RegExp(ADDRESS_PATTERN), "an address: 0x followed by 40 hex digits")],
              planModifiers: [replaceUnlessSame("address", sameAddress)],
            }),
            balance: attr.string({
              description: `Balance: ${BALANCE_FORMATS}. Sent as hex wei; state keeps the text as written, and a different spelling of the same amount changes nothing.`,
              required: true,
              validators: [balance],
              planModifiers: [replaceUnlessSame("balance", sameBalance)],
            }),
          },
        }),
      },
    }),
    bridge: block.list({
      description: "Bridge between the environment's Virtual Environments.",
      maxItems: 1,
      attributes: {
        enabled: attr.bool({ description: "Whether the bridge is enabled (default false).", optional: true, planModifiers: [requiresReplace()] }),
        relay_mode: attr.string({
          description: "How messages are relayed: autoRelay (default) or delayedRelay.",
          optional: true,
          validators: [oneOf(["autoRelay", "delayedRelay"])],
          planModifiers: [requiresReplace()],
        }),
        delay_seconds: attr.number({
          description: `Relay delay in seconds (0 to ${MAX_DELAY_SECONDS}); only with relay_mode delayedRelay.`,
          optional: true,
          validators: [wholeNumber(0, MAX_DELAY_SECONDS)],
          planModifiers: [requiresReplace()],
        }),
      },
    }),
  },
});

/** The state of a `chainform_environment`. */
export type EnvironmentState = Model<typeof environmentSchema>;
type NetworkConfigState = EnvironmentState["network_config"][number];
type BridgeState = EnvironmentState["bridge"][number];

/** What the configuration said, where state keeps the user's spelling (balances, addresses, block numbers). */
export type WrittenAs = {
  readonly network_config?: readonly { network_id?: unknown; block_number?: unknown; account?: readonly { address?: unknown; balance?: unknown }[] }[];
  readonly bridge?: readonly Partial<Record<keyof BridgeState, unknown>>[];
} | null;

/**
 * The one mapping from the service's Environment to state. `writtenAs` is the plan (create) or prior state (read):
 * where it spells a value differently but means the same (a balance in ether, an address in upper case, a block
 * number with leading zeros), state keeps its spelling, so that the next plan is empty; where it left an optional
 * argument out and the service holds the default, state leaves it out too. Without it (import), state holds the
 * service's canonical values and leaves out what equals the default.
 */
export function toState(environment: Environment, writtenAs: WrittenAs): EnvironmentState {
  const endpoints = endpointsOf(environment);
  const network_config = environment.network_configs.map((config, index): NetworkConfigState => {
    const written = writtenAs?.network_config?.find((n) => n.network_id === config.network_id) ?? writtenAs?.network_config?.[index];
    const vnet =
      environment.active_instance.vnets.find((v) => String(v.fork_config.network_id) === config.network_id) ??
      environment.active_instance.vnets[index];
    const blockNumber = config.block_number ?? vnet?.fork_config.block_number ?? null;
    return {
      network_id: config.network_id,
      block_number: keepSpelling(written?.block_number, blockNumber, sameQuantity),
      chain_id: config.chain_config_overrides?.chain_id !== undefined ? Number(config.chain_config_overrides.chain_id) : null,
      explorer: config.explorer_config
        ? [{ enabled: config.explorer_config.enabled ?? null, verification_visibility: config.explorer_config.verification_visibility ?? null }]
        : [],
      account: (config.accounts ?? []).map((account, j) => ({
        address: keepSpelling(written?.account?.[j]?.address, account.address, sameAddress)!,
        balance: keepSpelling(written?.account?.[j]?.balance, account.balance, sameBalance)!,
      })),
    };
  });
  return {
    id: environment.id,
    display_name: environment.display_name,
    slug: environment.slug,
    created_at: environment.created_at,
    instance_id: environment.active_instance.id,
    network_config,
    bridge: bridgeState(environment.bridge_config, writtenAs?.bridge),
    ...endpoints,
  };
}

function keepSpelling(written: unknown, actual: string | null, same: (a: string, b: string) => boolean): string | null {
  return typeof written === "string" && actual !== null && !isUnknown(written) && same(written, actual) ? written : actual;
}

function bridgeState(actual: Environment["bridge_config"], written: NonNullable<WrittenAs>["bridge"]): BridgeState[] {
  const block = written?.[0];
  const isDefault = (Object.keys(BRIDGE_DEFAULTS) as (keyof typeof BRIDGE_DEFAULTS)[]).every((k) => actual[k] === BRIDGE_DEFAULTS[k]);
  if (!block && isDefault) return [];
  // An argument left out stays out while the service holds its default; anything else shows the service's value.
  const field = <K extends keyof typeof BRIDGE_DEFAULTS>(key: K) =>
    (block ? block[key] === null || block[key] === undefined : true) && actual[key] === BRIDGE_DEFAULTS[key] ? null : actual[key];
  return [{ enabled: field("enabled"), relay_mode: field("relay_mode"), delay_seconds: field("delay_seconds") }];
}

/** The create request for a plan (balances normalized to hex wei, block numbers canonical). */
export function createRequest(plan: {
  display_name: string;
  slug: string | null;
  network_config: readonly NetworkConfigState[];
  bridge: readonly BridgeState[];
}): CreateEnvironmentRequest {
  const network_configs = plan.network_config.map((n): NetworkConfig => {
    const config: NetworkConfig = { network_id: n.network_id };
    if (typeof n.block_number === "string" && !isUnknown(n.block_number)) config.block_number = canonicalHex(n.block_number);
    if (n.chain_id !== null) config.chain_config_overrides = { chain_id: String(n.chain_id) };
    const explorer = n.explorer[0];
    if (explorer) {
      config.explorer_config = {};
      if (explorer.enabled !== null) config.explorer_config.enabled = explorer.enabled;
      if (explorer.verification_visibility !== null) {
        config.explorer_config.verification_visibility = explorer.verification_visibility as "bytecode" | "abi" | "source";
      }
    }
    if (n.account.length > 0) config.accounts = n.account.map((a) => ({ address: a.address, balance: normalizeBalance(a.balance) }));
    return config;
  });
  const request: CreateEnvironmentRequest = { display_name: plan.display_name, network_configs };
  if (plan.slug !== null && !isUnknown(plan.slug)) request.slug = plan.slug;
  const bridge = plan.bridge[0];
  if (bridge) {
    request.bridge_config = {};
    if (bridge.enabled !== null) request.bridge_config.enabled = bridge.enabled;
    if (bridge.relay_mode !== null) request.bridge_config.relay_mode = bridge.relay_mode as "autoRelay" | "delayedRelay";
    if (bridge.delay_seconds !== null) request.bridge_config.delay_seconds = bridge.delay_seconds;
  }
  return request;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const known = <T>(value: T): value is Exclude<T, null | undefined | UnknownValue> => value !== null && value !== undefined && !isUnknown(value);

/** The resource. */
export const environment = defineResource<typeof environmentSchema, ChainformProviderData>({
  typeName: "chainform_environment",
  schema: environmentSchema,

  validate({ config, diagnostics }) {
    // Rules the service would reject at apply (lib/spec's shared cross-field rules): caught at validate, with the
    // attribute at fault. Unknown values are left out of the check.
    if (isUnknown(config.network_config)) return;
    const entries = config.network_config.map((network) =>
      isUnknown(network)
        ? {}
        : {
            network_id: known(network.network_id) ? network.network_id : undefined,
            chain_id: known(network.chain_id) ? network.chain_id : undefined,
            addresses: isUnknown(network.account) ? [] : network.account.map((a) => (!isUnknown(a) && known(a.address) ? a.address : undefined)),
          },
    );
    for (const finding of networkListFindings(entries)) {
      const [, , i, field, j] = finding.path.split("/");
      const where = Number(i);
      if (field === "network_id") {
        diagnostics.error(
          "Duplicate network",
          `Network ${entries[where]!.network_id} is already network_config[${finding.twin}]; an environment forks each network once. Remove one of them.`,
          at("network_config", where, "network_id"),
        );
      } else if (field === "chain_config_overrides") {
        diagnostics.error("Duplicate chain id", `${finding.message.replace(/^chain id/, "Chain id").replace("network_configs", "network_config")}; pick another chain_id.`, at("network_config", where, "chain_id"));
      } else {
        const address = entries[where]!.addresses![Number(j)];
        diagnostics.error("Duplicate account", `Address ${address} is already account[${finding.twin}] of this network; fund it once.`, at("network_config", where, "account", Number(j), "address"));
      }
    }
    if (isUnknown(config.bridge)) return;
    const bridge = config.bridge[0];
    if (!bridge || isUnknown(bridge) || !known(bridge.delay_seconds) || isUnknown(bridge.relay_mode)) return;
    for (const finding of bridgeFindings({ relay_mode: bridge.relay_mode ?? undefined, delay_seconds: bridge.delay_seconds })) {
      diagnostics.error(
        "delay_seconds needs delayedRelay",
        `${finding.message}. Set relay_mode = "delayedRelay" or remove delay_seconds.`,
        at("bridge", 0, "delay_seconds"),
      );
    }
  },


  async modifyPlan({ plan, state, config, diagnostics, providerData, requiresReplace: replace, private: priorPrivate, setPrivate }) {
    if (state !== null) {
      // If this turns out to be a replacement, Terraform plans the new object again with no prior state but with
      // this private data: the slug check below must not mistake the environment being replaced for a squatter.
      setPrivate({ replacing: state.id });
      // Blocks added or removed replace the environment too (attribute changes are marked by their modifiers).
      const planned = plan.network_config;
      if (!isUnknown(planned)) {
        if (planned.length !== state.network_config.length) replace(at("network_config"));
        planned.forEach((network, i) => {
          const prior = state.network_config[i];
          if (!prior || isUnknown(network)) return;
          if (!isUnknown(network.account) && network.account.length !== prior.account.length) replace(at("network_config", i, "account"));
          if (!isUnknown(network.explorer) && network.explorer.length !== prior.explorer.length) replace(at("network_config", i, "explorer"));
        });
      }
      if (!isUnknown(plan.bridge) && plan.bridge.length !== state.bridge.length) replace(at("bridge"));
      return;
    }
    // Creating: the slug is known now (the client derives it from display_name exactly as the service would).
    if (config.slug === null && known(config.display_name)) plan.slug = slugify(config.display_name);
    if (!providerData || !known(plan.slug) || !providerData.accountSlug || !providerData.projectSlug) return;
    const data = providerData;
    const networks = isUnknown(plan.network_config) ? [] : plan.network_config;
    try {
      // Unsupported networks fail the plan, not the apply.
      if (networks.some((n) => !isUnknown(n) && known(n.network_id))) {
        const supported = await data.client.listSupportedNetworks();
        networks.forEach((network, i) => {
          if (isUnknown(network) || !known(network.network_id)) return;
          const found = supported.find((s) => s.chain_id === network.network_id);
          if (!found) {
            diagnostics.error(
              "Unsupported network",
              `Network ${network.network_id} is not supported by the service. See data.chainform_supported_networks (feature = "virtual_testnet") for the networks that are.`,
              at("network_config", i, "network_id"),
            );
          } else if (!found.supported_features.virtual_testnet) {
            diagnostics.error(
              "Network without Virtual Environments",
              `${found.network_name} (${found.chain_id}) cannot be forked into a Virtual Environment. Pick a network with the virtual_testnet feature.`,
              at("network_config", i, "network_id"),
            );
          }
        });
      }
      // A create whose slug is taken would fail at apply: fail the plan instead, with the way to adopt it.
      const existing = await data.client.getEnvironmentBySlug({ slug: plan.slug });
      if (existing && existing.id !== priorPrivate?.["replacing"]) {
        diagnostics.error(
          "An environment with this slug already exists",
          `Project ${data.accountSlug}/${data.projectSlug} already has environment ${existing.id} with slug "${existing.slug}" ("${existing.display_name}"). ` +
            `To manage it with Terraform, import it (use this resource's name, shown above, for <name>):\n\n` +
            `  terraform import chainform_environment.<name> ${existing.id}\n\n` +
            `or choose another slug.`,
          config.slug === null ? at("display_name") : at("slug"),
        );
      }
    } catch (error) {
      reportError(diagnostics, data, error, { action: "check the planned environment against the service" });
    }
  },

  async create({ plan, providerData: data, diagnostics }) {
    if (!requireProject(data, diagnostics, "create the environment")) return;
    const request = createRequest(plan as never);
    // No cancellation here: an environment the service created must reach state (Ctrl-C waits for this call).
    let created: Environment;
    try {
      created = await data.client.createEnvironment(request);
    } catch (error) {
      if (isSlugConflict(error)) {
        diagnostics.error(
          "An environment with this slug already exists",
          `Slug "${request.slug}" was taken between plan and apply. Import the existing environment (terraform import chainform_environment.<name> ${request.slug}) or choose another slug. The service said: ${(error as ApiError).serviceMessage}${(error as ApiError).errorId ? ` (error id ${(error as ApiError).errorId})` : ""}`,
          at("slug"),
        );
        return;
      }
      reportError(diagnostics, data, error, { action: "create the environment", fieldPath: environmentFieldPath });
      return;
    }
    return toState(created, plan as WrittenAs);
  },

  async read({ state, providerData: data, diagnostics }) {
    if (!requireProject(data, diagnostics, "read the environment")) return;
    try {
      return toState(await data.client.getEnvironment({ environmentId: state.id }), state as WrittenAs);
    } catch (error) {
      // Deleted out of band: drop it from state, so that the next plan creates it again.
      if (error instanceof ApiError && error.status === 404) return null;
      reportError(diagnostics, data, error, { action: `read environment ${state.id}` });
      return;
    }
  },

  // Only changes of spelling reach update (every change of meaning forces replacement): nothing to send.
  async update({ plan, state }) {
    return { ...state, ...pickInputs(plan as unknown as EnvironmentState) };
  },

  async delete({ state, providerData: data, diagnostics }) {
    if (!requireProject(data, diagnostics, "delete the environment")) return;
    try {
      await data.client.deleteEnvironment({ environmentId: state.id, ensureDeleted: true });
    } catch (error) {
      reportError(diagnostics, data, error, { action: `delete environment ${state.id}` });
    }
  },

  async importState({ id, providerData: data, diagnostics }) {
    if (!requireProject(data, diagnostics, "import the environment")) return;
    const hint = `Import takes the environment's id (a UUID) or its slug, e.g.\n\n  terraform import chainform_environment.<name> ci-main\n\nList them with data.chainform_environments or \`chainform env list\`.`;
    try {
      if (UUID.test(id)) {
        const found = await data.client.getEnvironment({ environmentId: id.toLowerCase() });
        return { id: found.id };
      }
      const found = await data.client.getEnvironmentBySlug({ slug: id });
      if (found) return { id: found.id };
      diagnostics.error("No such environment", `Project ${data.accountSlug}/${data.projectSlug} has no environment with slug "${id}". ${hint}`);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        diagnostics.error("No such environment", `Project ${data.accountSlug}/${data.projectSlug} has no environment with id ${id}. ${hint}`);
        return;
      }
      reportError(diagnostics, data, error, { action: `import environment ${id}` });
    }
    return undefined;
  },
});

/** The arguments of a plan (what update may change the spelling of). */
function pickInputs(plan: EnvironmentState): Pick<EnvironmentState, "network_config" | "bridge"> {
  return { network_config: plan.network_config, bridge: plan.bridge };
}

/** Re-exported for tests. */
export type { Diagnostics };
