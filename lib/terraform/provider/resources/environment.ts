/**
 * `chainform_environment`: a multi-network environment, one Virtual Environment per `network_config`, with an
 * optional bridge between them. The service has no update endpoint, so every change of meaning replaces the
 * environment and the plan names the attribute that forces it. Changes of spelling only (`"100ether"` written as
 * `"0x56bc75e2d63100000"`, an address in other letter case) are in-place updates that call nothing.
 *
 * The service's documented Environment shows the display name, slug, networks with their fork blocks, and each
 * vnet's RPC URLs; it does not show what the environment was created with (chain-id overrides, accounts,
 * explorer, bridge). The chain id is read from each chain (`eth_chainId`) at import and refresh; the rest lives in
 * Terraform state: state keeps what was applied, and read refreshes only what the service and the chains show. See lib/terraform/provider/README.md for what import can and cannot recover.
 */
import { randomBytes } from "node:crypto";
import {
  ApiError,
  diffEnvironment,
  slugTakenBy,
  type CreateEnvironmentRequest,
  type Environment,
  type NetworkConfig,
} from "../../../client";
import { MAX_SLUG_LENGTH, SLUG_PATTERN, SLUG_PREFIX_PATTERN, slugify } from "../../../domain/slug";
import {
  BLOCK_NUMBER_FORMATS,
  blockNumberHex,
  CHAIN_ID_PATTERN,
  parseBlockNumber,
  parseChainId,
  sameBlockNumber,
} from "../../../domain/chain";
import {
  bridgeFindings,
  MAX_ACCOUNTS_PER_NETWORK,
  MAX_NETWORKS_PER_ENVIRONMENT,
  MAX_DISPLAY_NAME_LENGTH,
  MAX_RELAY_DELAY_SECONDS,
  networkListFindings,
  RELAY_MODE_VALUES,
  VERIFICATION_VISIBILITY_VALUES,
  type RelayMode,
  type VerificationVisibility,
} from "../../../domain/environment-rules";
import {
  at,
  attr,
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
  isKnown,
} from "../../framework";
import { BALANCE_FORMATS, normalizeBalance, parseBalance, sameBalance } from "../../../domain/amounts";
import { addressValidator } from "../address";
import { environmentFieldPath, reportError } from "../errors";
import { requireProject, type ChainformProviderData } from "../provider-data";
import { BRIDGE_ADDRESS } from "../../../domain/bridge-contract";
import {
  adminRpcUrlsAttribute,
  answeredChainIds,
  endpointsOf,
  lacksAdminRpc,
  publicRpcUrlsAttribute,
  vnetsAttribute,
  type VnetState,
} from "./vnets";

/** The service's limits (lib/domain): networks per environment, accounts per network, relay delay. */
const MAX_NETWORKS = MAX_NETWORKS_PER_ENVIRONMENT;
const MAX_ACCOUNTS = MAX_ACCOUNTS_PER_NETWORK;
const MAX_DELAY_SECONDS = MAX_RELAY_DELAY_SECONDS;

const balance = validator(BALANCE_FORMATS, (text: string) => {
  const parsed = parseBalance(text);
  return "error" in parsed ? parsed.error : undefined;
});
/** Chain ids and block numbers by lib/domain's rules (exact ranges: chain ids up to EIP-2294's bound, blocks up to 2^64-1). */
const chainIdText = validator(`a chain id in decimal (${CHAIN_ID_PATTERN}), e.g. "1"`, (text: string) => {
  const parsed = parseChainId(text);
  return "error" in parsed ? parsed.error : undefined;
});
const blockNumber = validator(BLOCK_NUMBER_FORMATS, (text: string) => {
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

/** Slug syntax (lib/domain/slug.ts); a prefix may end with a dash. */
const SLUG = new RegExp(SLUG_PATTERN);
const SLUG_PREFIX = new RegExp(SLUG_PREFIX_PATTERN);
/** Length of the unique suffix that slug_prefix gets (8 lowercase hex digits). */
const SUFFIX_LENGTH = 8;

/**
 * A slug from `slug_prefix`: the prefix, a dash unless it ends with one, and 8 random hex digits (AWS's
 * `name_prefix` convention), e.g. `ci-` → `ci-3f9a0c1b`.
 */
export function slugFromPrefix(prefix: string, random: () => string = () => randomBytes(SUFFIX_LENGTH / 2).toString("hex")): string {
  return `${prefix}${prefix.endsWith("-") ? "" : "-"}${random()}`;
}

/** The resource schema. */
export const environmentSchema = defineSchema({
  // Version 1: network_config.chain_id became a string (was a number); vnets gained bridge_address.
  version: 1,
  description:
    "A throw-away blockchain environment: one Virtual Environment (a fork of a real network with its own RPC URLs) per `network_config`, optionally bridged. There is no update: changing any argument replaces the environment.",
  attributes: {
    // Required
    display_name: attr.string({
      description: "Display name of the environment.",
      required: true,
      validators: [lengthBetween(1, MAX_DISPLAY_NAME_LENGTH)],
      planModifiers: [requiresReplace()],
    }),
    // Optional
    slug: attr.string({
      description:
        'Slug of the environment, unique in the project; derived from display_name when omitted ("CI run 42" → ci-run-42), or generated from slug_prefix. Conflicts with slug_prefix. A fixed slug cannot be used with lifecycle { create_before_destroy = true }: the replacement would need the slug while the old environment still holds it; use slug_prefix.',
      optional: true,
      computed: true,
      validators: [regex(SLUG, "lowercase letters and digits in dash-separated groups"), lengthBetween(1, MAX_SLUG_LENGTH)],
      planModifiers: [useStateForUnknown(), requiresReplace()],
    }),
    slug_prefix: attr.string({
      description: `Creates a unique slug beginning with this prefix: the prefix, a dash unless it ends with one, and ${SUFFIX_LENGTH} random hex digits (\"ci-\" → ci-3f9a0c1b), like AWS's name_prefix. Use it with lifecycle { create_before_destroy = true }, so that a replacement never collides with the environment it replaces. Conflicts with slug. The slug is known after apply.`,
      optional: true,
      validators: [
        regex(SLUG_PREFIX, "lowercase letters and digits in dash-separated groups, optionally ending with a dash"),
        lengthBetween(1, MAX_SLUG_LENGTH - SUFFIX_LENGTH - 1),
      ],
    }),
    // Computed
    id: attr.string({ description: "Identifier of the environment.", computed: true, planModifiers: [useStateForUnknown()] }),
    created_at: attr.string({
      description: "When the environment was created (ISO 8601).",
      computed: true,
      planModifiers: [useStateForUnknown()],
    }),
    instance_id: attr.string({
      description: "Identifier of the environment's active instance.",
      computed: true,
      planModifiers: [useStateForUnknown()],
    }),
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
          description:
            'Block number to fork at, in decimal ("19500000", or a number variable) or hex ("0x12a05f2"); defaults to the network\'s latest block and is then computed from the fork point (hex, as the service answers). State keeps the spelling written: the same block in the other spelling changes nothing.',
          optional: true,
          computed: true,
          validators: [blockNumber],
          planModifiers: [useStateForUnknown(), replaceUnlessSame("block number", sameBlockNumber)],
        }),
        chain_id: attr.string({
          description:
            "Chain ID the Virtual Environment answers with, as a decimal string (exact at any size: numbers lose precision above 2^53); defaults to the forked network's. The service does not return it: import and refresh read it from the chain (eth_chainId), so a configuration that says another replaces the environment.",
          optional: true,
          validators: [chainIdText],
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
              validators: [oneOf([...VERIFICATION_VISIBILITY_VALUES])],
              planModifiers: [requiresReplace()],
            }),
          },
        }),
        account: block.list({
          description: "An account funded at creation (up to 100 per network).",
          maxItems: MAX_ACCOUNTS,
          attributes: {
            address: attr.string({
              description:
                "Account address: 0x followed by 40 hex digits, all lowercase, all uppercase, or mixed case with a valid EIP-55 checksum (a mixed-case address whose checksum does not match is an error: a character is likely mistyped).",
              required: true,
              validators: [addressValidator],
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
        enabled: attr.bool({
          description: "Whether the bridge is enabled (default false).",
          optional: true,
          planModifiers: [requiresReplace()],
        }),
        relay_mode: attr.string({
          description: "How messages are relayed: autoRelay (default) or delayedRelay.",
          optional: true,
          validators: [oneOf([...RELAY_MODE_VALUES])],
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

/**
 * What Terraform already knows of the environment: the plan (create) or the prior state (read). It supplies what
 * the service's answer does not show (chain-id overrides, explorer, accounts, bridge, slug_prefix) and the user's
 * spelling of what it does show. Null on import.
 */
export type Known = {
  readonly slug_prefix?: unknown;
  readonly network_config?:
    | readonly {
        network_id?: unknown;
        block_number?: unknown;
        chain_id?: unknown;
        explorer?: unknown;
        account?: readonly { address?: unknown; balance?: unknown }[] | unknown;
      }[]
    | unknown;
  readonly bridge?: readonly Partial<Record<keyof BridgeState, unknown>>[] | unknown;
} | null;

/**
 * The one mapping from the service's Environment to state. From the answer it takes what the service documents:
 * id, display name, slug, created_at, the instance, the networks in order with their fork blocks (keeping the
 * known spelling of the same block number), and the vnets' RPC URLs. Everything else comes from `known`, matched
 * by network_id: the chain-id override, explorer settings and accounts of each network, and the bridge. A network
 * the answer shows that `known` lacks (import) gets no settings: the service cannot tell them.
 *
 * `answered` (read and import) are the chain ids the vnets answer with (`eth_chainId`), keyed by network id: they
 * override what `known` says, so that state never claims a chain id the chain does not answer. The override is
 * null when the chain answers its network's own id and nothing else was written.
 */
export function toState(environment: Environment, known: Known, answered?: ReadonlyMap<string, string>): EnvironmentState {
  const knownNetworks = listOf(known?.network_config);
  const fromAnswer =
    (environment.networks?.length ?? 0) > 0
      ? environment.networks.map((n) => ({ network_id: String(n.network_id), block_number: n.block_number ?? null }))
      : (environment.active_instance?.vnets ?? []).map((v) => ({
          network_id: String(v.fork_config?.network_id),
          block_number: v.fork_config?.block_number ?? null,
        }));
  const network_config = fromAnswer.map((network, index): NetworkConfigState => {
    const written =
      knownNetworks.find((n) => n.network_id === network.network_id) ??
      (knownNetworks[index]?.network_id === undefined ? knownNetworks[index] : undefined);
    return {
      network_id: network.network_id,
      block_number: keepSpelling(written?.block_number, network.block_number, sameBlockNumber),
      chain_id: chainIdOf(
        network.network_id,
        typeof written?.chain_id === "string" && !isUnknown(written.chain_id) ? written.chain_id : null,
        answered?.get(network.network_id),
      ),
      explorer: listOf(written?.explorer).map((e) => e as NetworkConfigState["explorer"][number]),
      account: listOf(written?.account).map((a) => a as NetworkConfigState["account"][number]),
    };
  });
  const bridge = listOf(known?.bridge).map((b) => b as BridgeState);
  const chainIds = new Map(network_config.map((n) => [n.network_id, n.chain_id]));
  return {
    id: environment.id,
    display_name: environment.display_name,
    slug: environment.slug,
    slug_prefix: typeof known?.slug_prefix === "string" && !isUnknown(known.slug_prefix) ? known.slug_prefix : null,
    created_at: environment.created_at,
    instance_id: environment.active_instance?.id ?? null,
    network_config,
    bridge,
    ...endpointsOf(environment, { chainIdOf: (networkId) => chainIds.get(networkId) ?? null, bridgeEnabled: bridge[0]?.enabled === true }),
  } as EnvironmentState;
}

/** The chain-id override state holds: what the chain answers, spelled as written when they agree. */
function chainIdOf(networkId: string, written: string | null, answered: string | undefined): string | null {
  if (answered === undefined || answered === written) return written;
  return answered === networkId && written === null ? null : answered;
}

function listOf<T = Record<string, unknown>>(value: unknown): T[] {
  return Array.isArray(value) ? (value.filter((v) => v !== null && typeof v === "object" && !isUnknown(v)) as T[]) : [];
}

function keepSpelling(written: unknown, actual: string | null, same: (a: string, b: string) => boolean): string | null {
  return typeof written === "string" && actual !== null && !isUnknown(written) && same(written, actual) ? written : actual;
}

/** The create request for a plan (balances normalized to hex wei, block numbers to canonical hex) and a known slug. */
export function createRequest(plan: {
  display_name: string;
  slug: string | null;
  network_config: readonly NetworkConfigState[];
  bridge: readonly BridgeState[];
}): CreateEnvironmentRequest {
  const network_configs = plan.network_config.map((n): NetworkConfig => {
    const config: NetworkConfig = { network_id: n.network_id };
    if (typeof n.block_number === "string" && !isUnknown(n.block_number)) config.block_number = blockNumberHex(n.block_number);
    if (n.chain_id !== null) config.chain_config_overrides = { chain_id: n.chain_id };
    const explorer = n.explorer[0];
    if (explorer) {
      config.explorer_config = {};
      if (explorer.enabled !== null) config.explorer_config.enabled = explorer.enabled;
      if (explorer.verification_visibility !== null) {
        config.explorer_config.verification_visibility = explorer.verification_visibility as VerificationVisibility;
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
    if (bridge.relay_mode !== null) request.bridge_config.relay_mode = bridge.relay_mode as RelayMode;
    if (bridge.delay_seconds !== null) request.bridge_config.delay_seconds = bridge.delay_seconds;
  }
  return request;
}

/**
 * Warns when another environment than `ignoreId` (the one being replaced) holds `slug`: the create will fail at
 * apply (or, with adopt_existing, adopt a matching environment). A warning, never an error: `terraform destroy`
 * runs a normal plan first, and an error here would make destroy impossible while such an environment exists.
 */
async function warnTakenSlug(
  data: ChainformProviderData,
  diagnostics: Diagnostics,
  slug: string,
  ignoreId: unknown,
  path: ReturnType<typeof at>,
): Promise<void> {
  let existing: Environment | null;
  try {
    existing = await data.lookups.environmentBySlug(slug);
  } catch {
    return; // Only advice: the create itself reports a taken slug.
  }
  if (!existing || existing.id === ignoreId) return;
  if (data.adoptExisting) {
    diagnostics.warning(
      "An environment with this slug already exists",
      `Project ${data.accountSlug}/${data.projectSlug} already has environment ${existing.id} with slug "${existing.slug}". adopt_existing is on: apply adopts it if its display name and networks match this configuration, and fails otherwise.`,
      path,
    );
  } else {
    diagnostics.warning(
      "An environment with this slug already exists: apply will fail",
      `Project ${data.accountSlug}/${data.projectSlug} already has environment ${existing.id} with slug "${existing.slug}" ("${existing.display_name}"). ${takenSlugAdvice(data, existing)}`,
      path,
    );
  }
}

/** The advice for a slug held by an environment this resource does not manage: commands that work. */
function takenSlugAdvice(data: ChainformProviderData, existing: Environment): string {
  return (
    `To manage that environment with Terraform, import it (use this resource's address, shown above):\n\n` +
    `  terraform import <address> ${existing.id}\n\n` +
    `or set adopt_existing = true in the provider block (adoptExisting: true on ChainformProvider in a CDK app) to adopt it if it matches this configuration, or choose another slug. ` +
    `If it is the environment this resource is replacing with lifecycle { create_before_destroy = true }, a fixed slug cannot work: ` +
    `replace slug with slug_prefix so that each replacement gets a fresh slug. ` +
    `List the project's environments with \`chainform environments\` (CHAINFORM_ACCOUNT=${data.accountSlug} CHAINFORM_PROJECT=${data.projectSlug}).`
  );
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The resource. */
export const environment = defineResource<typeof environmentSchema, ChainformProviderData>({
  typeName: "chainform_environment",
  schema: environmentSchema,

  validate({ config, diagnostics }) {
    if (isKnown(config.slug) && isKnown(config.slug_prefix)) {
      diagnostics.error(
        "Conflicting slug arguments",
        "Set slug or slug_prefix, not both: slug_prefix generates the slug.",
        at("slug_prefix"),
      );
    }
    // Rules the service would reject at apply (lib/domain's shared cross-field rules): caught at validate, with the
    // attribute at fault. Unknown values are left out of the check.
    if (isUnknown(config.network_config)) return;
    const entries = config.network_config.map((network) =>
      isUnknown(network)
        ? {}
        : {
            network_id: isKnown(network.network_id) ? network.network_id : undefined,
            chain_id: isKnown(network.chain_id) ? network.chain_id : undefined,
            addresses: isUnknown(network.account)
              ? []
              : network.account.map((a) => (!isUnknown(a) && isKnown(a.address) ? a.address : undefined)),
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
        diagnostics.error(
          "Duplicate chain id",
          `${finding.message.replace(/^chain id/, "Chain id").replace("network_configs", "network_config")}; pick another chain_id.`,
          at("network_config", where, "chain_id"),
        );
      } else {
        const address = entries[where]!.addresses![Number(j)];
        diagnostics.error(
          "Duplicate account",
          `Address ${address} is already account[${finding.twin}] of this network; fund it once.`,
          at("network_config", where, "account", Number(j), "address"),
        );
      }
    }
    if (isUnknown(config.bridge)) return;
    const bridge = config.bridge[0];
    if (!bridge || isUnknown(bridge) || !isKnown(bridge.delay_seconds) || isUnknown(bridge.relay_mode)) return;
    for (const finding of bridgeFindings({ relay_mode: bridge.relay_mode ?? undefined, delay_seconds: bridge.delay_seconds })) {
      diagnostics.error(
        "delay_seconds needs delayedRelay",
        `${finding.message}. Set relay_mode = "delayedRelay" or remove delay_seconds.`,
        at("bridge", 0, "delay_seconds"),
      );
    }
  },

  async modifyPlan({
    plan,
    state,
    config,
    diagnostics,
    providerData,
    requiresReplace: replace,
    keepInPlace,
    private: priorPrivate,
    setPrivate,
  }) {
    // A missing or wrong credential fails the plan, not the apply after it. Skipped when the provider's settings
    // are not known yet; a service that cannot be reached is not a rejection (the calls below report it).
    if (providerData?.accountSlug && providerData.projectSlug && !providerData.configUnknown) {
      const data = providerData;
      const accepted = await data.lookups.credentialsAccepted((error) =>
        reportError(diagnostics, data, error, { action: "plan chainform_environment" }),
      );
      if (!accepted) return;
    }
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
          if (!isUnknown(network.explorer) && network.explorer.length !== prior.explorer.length)
            replace(at("network_config", i, "explorer"));
        });
      }
      if (!isUnknown(plan.bridge) && plan.bridge.length !== state.bridge.length) replace(at("bridge"));
      // After an import, state lacks what the service does not return (explorer, accounts, bridge): the
      // configuration's values are taken as they are, in place, instead of replacing the environment. The chain id
      // was read from the chain itself, so a configuration that says otherwise replaces it; only a chain that did
      // not answer at import leaves its chain id to the configuration.
      if (priorPrivate?.["imported"] === true) {
        const answered = Array.isArray(priorPrivate["answered_chain_ids"]) ? (priorPrivate["answered_chain_ids"] as unknown[]) : [];
        state.network_config.forEach((prior, i) => {
          if (prior.chain_id === null && !answered.includes(prior.network_id)) keepInPlace(at("network_config", i, "chain_id"));
          if (prior.explorer.length === 0) keepInPlace(at("network_config", i, "explorer"));
          if (prior.account.length === 0) keepInPlace(at("network_config", i, "account"));
        });
        if (state.bridge.length === 0) keepInPlace(at("bridge"));
      }
      if (!isUnknown(plan.network_config) && !isUnknown(plan.bridge) && !isUnknown(plan.vnets) && Array.isArray(plan.vnets)) {
        plan.vnets = withSettings(plan.vnets as VnetState[], plan.network_config as never, plan.bridge as never);
      }
      // A new slug_prefix replaces the environment unless its slug already starts with it (e.g. after import).
      if (!isUnknown(config.slug_prefix) && config.slug_prefix !== state.slug_prefix) {
        if (config.slug_prefix !== null && !(state.slug ?? "").startsWith(config.slug_prefix)) replace(at("slug_prefix"));
      }
      // A new slug (written, or derived from a new display_name) replaces the environment. Terraform shows only the
      // errors of the replacement's own plan, never its warnings, so a taken new slug is warned about here.
      const nextSlug = isKnown(config.slug)
        ? config.slug
        : config.slug === null && config.slug_prefix === null && isKnown(config.display_name)
          ? slugify(config.display_name)
          : undefined;
      if (nextSlug !== undefined && nextSlug !== state.slug && providerData?.accountSlug && providerData.projectSlug) {
        await warnTakenSlug(providerData, diagnostics, nextSlug, state.id, config.slug === null ? at("display_name") : at("slug"));
      }
      return;
    }
    // Creating: the slug is known now (derived from display_name exactly as the service would), unless
    // slug_prefix asks for a generated one, which stays unknown until apply.
    if (config.slug === null && config.slug_prefix === null && isKnown(config.display_name)) plan.slug = slugify(config.display_name);
    if (!providerData || !providerData.accountSlug || !providerData.projectSlug) return;
    const data = providerData;
    const networks = isUnknown(plan.network_config) ? [] : plan.network_config;
    try {
      // Unsupported networks fail the plan, not the apply.
      if (networks.some((n) => !isUnknown(n) && isKnown(n.network_id))) {
        const supported = await data.lookups.supportedNetworks();
        const forkable = supported
          .filter((s) => s.supported_features?.virtual_testnet !== false)
          .map((s) => `${s.chain_id} (${s.network_name})`);
        const list = `Networks with Virtual Environments: ${forkable.join(", ")}; data.chainform_supported_networks (feature = "virtual_testnet") and \`chainform networks\` list them too.`;
        networks.forEach((network, i) => {
          if (isUnknown(network) || !isKnown(network.network_id)) return;
          const found = supported.find((s) => String(s.chain_id) === network.network_id);
          if (!found) {
            diagnostics.error(
              "Unsupported network",
              `Network ${network.network_id} is not supported by the service. ${list}`,
              at("network_config", i, "network_id"),
            );
          } else if (found.supported_features && !found.supported_features.virtual_testnet) {
            diagnostics.error(
              "Network without Virtual Environments",
              `${found.network_name} (${found.chain_id}) cannot be forked into a Virtual Environment. ${list}`,
              at("network_config", i, "network_id"),
            );
          }
        });
      }
    } catch (error) {
      reportError(diagnostics, data, error, { action: "check the planned networks against the service" });
      return;
    }
    if (!isKnown(plan.slug)) return;
    await warnTakenSlug(data, diagnostics, plan.slug, priorPrivate?.["replacing"], config.slug === null ? at("display_name") : at("slug"));
  },

  async create({ plan, config, providerData: data, diagnostics }) {
    if (!requireProject(data, diagnostics, "create the environment")) return;
    const prefix = typeof plan.slug_prefix === "string" && !isUnknown(plan.slug_prefix) ? plan.slug_prefix : null;
    const fixedSlug = isKnown(plan.slug) ? plan.slug : null;
    // A generated slug that happens to be taken is generated again (twice at most); a fixed one is not.
    for (let attempt = 0; ; attempt++) {
      const slug = fixedSlug ?? (prefix !== null ? slugFromPrefix(prefix) : slugify(plan.display_name as string));
      const request = createRequest({ ...(plan as never as Parameters<typeof createRequest>[0]), slug });
      // No cancellation here: an environment the service created must reach state (Ctrl-C waits for this call).
      try {
        const created = await data.client.createEnvironment(request);
        return keptInState(toState(created, plan as Known), data);
      } catch (error) {
        let existing: Environment | null = null;
        try {
          existing = await slugTakenBy(data.client, {}, slug, error);
        } catch {
          // The lookup failed too: report the create's own error below.
        }
        if (!existing) {
          reportError(diagnostics, data, error, { action: "create the environment", fieldPath: environmentFieldPath });
          return;
        }
        if (fixedSlug === null && prefix !== null && attempt < 2) continue;
        const path = config.slug !== null ? at("slug") : config.slug_prefix !== null ? at("slug_prefix") : at("display_name");
        if (data.adoptExisting) {
          const differences = diffEnvironment(request, existing);
          if (differences.length === 0) {
            diagnostics.warning(
              "Adopted an existing environment",
              `Environment ${existing.id} already had slug "${slug}" and matches this configuration as far as the service shows (display name, networks, fork blocks), so it is now managed here (adopt_existing = true). Its accounts, chain-id overrides, explorer and bridge settings are not in the service's answer and were not checked.`,
              path,
            );
            return keptInState(toState(existing, plan as Known), data);
          }
          diagnostics.error(
            "An environment with this slug already exists and does not match",
            `Environment ${existing.id} has slug "${slug}" but differs from this configuration, so adopt_existing does not adopt it: ` +
              differences.map((d) => `${d.path}: configured ${JSON.stringify(d.expected)}, found ${JSON.stringify(d.actual)}`).join("; ") +
              `. Change the configuration to match, choose another slug, or delete that environment.`,
            path,
          );
          return;
        }
        const said =
          error instanceof ApiError
            ? ` The service said: ${error.serviceMessage}${error.errorId ? ` (error id ${error.errorId})` : ""}`
            : "";
        diagnostics.error(
          "An environment with this slug already exists",
          `Project ${data.accountSlug}/${data.projectSlug} already has environment ${existing.id} with slug "${slug}" ("${existing.display_name}"). ${takenSlugAdvice(data, existing)}${said}`,
          path,
        );
        return;
      }
    }
  },

  async read({ state, providerData: data, diagnostics }) {
    if (!requireProject(data, diagnostics, "read the environment")) return;
    try {
      const environment = await data.client.getEnvironment({ environmentId: state.id });
      if (lacksAdminRpc(environment)) warnNoAdminRpc(diagnostics);
      return keptInState(toState(environment, state as Known, await answeredChainIds(environment, data.caFile)), data);
    } catch (error) {
      // Deleted out of band: drop it from state, so that the next plan creates it again.
      if (error instanceof ApiError && error.status === 404) return null;
      reportError(diagnostics, data, error, { action: `read environment ${state.id}` });
      return;
    }
  },

  // Only changes of spelling reach update (every change of meaning forces replacement): nothing to send.
  async update({ plan, state, providerData: data }) {
    const inputs = pickInputs(plan as unknown as EnvironmentState);
    return keptInState(
      { ...state, ...inputs, vnets: withSettings(state.vnets as VnetState[], inputs.network_config, inputs.bridge) },
      data,
    );
  },

  async delete({ state, providerData: data, diagnostics }) {
    if (!requireProject(data, diagnostics, "delete the environment")) return;
    try {
      await data.client.deleteEnvironment({ environmentId: state.id, ensureDeleted: true });
    } catch (error) {
      reportError(diagnostics, data, error, { action: `delete environment ${state.id}` });
    }
  },

  // Version 0 held chain ids as numbers: exact only up to 2^53, so they are strings now.
  upgradeState({ version, state }) {
    if (version >= 1) return state;
    const asText = (value: unknown) => (typeof value === "number" ? String(value) : value);
    const networks = Array.isArray(state["network_config"]) ? (state["network_config"] as Record<string, unknown>[]) : [];
    const vnets = Array.isArray(state["vnets"]) ? (state["vnets"] as Record<string, unknown>[]) : [];
    return {
      ...state,
      network_config: networks.map((n) => ({ ...n, chain_id: asText(n["chain_id"]) })),
      vnets: vnets.map((v) => ({ ...v, chain_id: asText(v["chain_id"]), bridge_address: v["bridge_address"] ?? null })),
    };
  },

  async importState({ id, providerData: data, diagnostics, setPrivate }) {
    if (!requireProject(data, diagnostics, "import the environment")) return;
    // What the service does not return is unknown to the imported state: the first plan takes it from the
    // configuration. Chain ids are not: the read after the import asks each chain (`eth_chainId`).
    const imported = async (found: Environment) => {
      setPrivate({ imported: true, answered_chain_ids: [...(await answeredChainIds(found, data.caFile)).keys()] });
      return { id: found.id };
    };
    const hint = `Import takes the environment's id (a UUID) or its slug, e.g.\n\n  terraform import chainform_environment.<name> ci-main\n\nList them with data.chainform_environments or \`chainform environments\`.`;
    try {
      if (UUID.test(id)) {
        return await imported(await data.client.getEnvironment({ environmentId: id.toLowerCase() }));
      }
      const found = await data.client.getEnvironmentBySlug({ slug: id });
      if (found) return await imported(found);
      diagnostics.error(
        "No such environment",
        `Project ${data.accountSlug}/${data.projectSlug} has no environment with slug "${id}". ${hint}`,
      );
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        diagnostics.error(
          "No such environment",
          `Project ${data.accountSlug}/${data.projectSlug} has no environment with id ${id}. ${hint}`,
        );
        return;
      }
      reportError(diagnostics, data, error, { action: `import environment ${id}` });
    }
    return undefined;
  },
});

/** The arguments of a plan (what update may change: spellings, and slug_prefix when the slug already fits it). */
function pickInputs(plan: EnvironmentState): Pick<EnvironmentState, "network_config" | "bridge" | "slug_prefix"> {
  return { network_config: plan.network_config, bridge: plan.bridge, slug_prefix: plan.slug_prefix };
}

/** The vnets with what state knows beyond the service's answer: each chain id and the bridge address. */
function withSettings(vnets: readonly VnetState[], networks: readonly NetworkConfigState[], bridge: readonly BridgeState[]): VnetState[] {
  return vnets.map((vnet) => ({
    ...vnet,
    chain_id: networks.find((n) => n.network_id === vnet.network_id)?.chain_id ?? vnet.network_id,
    bridge_address: bridge[0]?.enabled === true ? BRIDGE_ADDRESS : null,
  }));
}

/**
 * The state as the provider's `admin_rpc_urls_in_state` wants it: when that is false, without Admin RPC URLs
 * (`admin_rpc_urls` empty, `vnets[*].admin_rpc_url` null), so that neither state nor plan files hold them.
 */
export function keptInState<T extends { admin_rpc_urls: Record<string, string>; vnets: readonly { admin_rpc_url: string | null }[] }>(
  state: T,
  data: Pick<ChainformProviderData, "adminRpcUrlsInState"> | undefined,
): T {
  if (data?.adminRpcUrlsInState !== false) return state;
  return { ...state, admin_rpc_urls: {}, vnets: state.vnets.map((vnet) => ({ ...vnet, admin_rpc_url: null })) };
}

/** The credential may not write, so the service left out the Admin RPC URLs. */
export function warnNoAdminRpc(diagnostics: Diagnostics): void {
  diagnostics.warning(
    "No Admin RPC URLs",
    "The service did not return Admin RPC URLs: the credential may not write (a read-only key). admin_rpc_urls is empty and vnets[*].admin_rpc_url is null; use a key that may write to get them.",
  );
}

/** Re-exported for tests. */
export type { Diagnostics };
