/**
 * The schema of `chainform_environment` (./environment.ts): its arguments, their validators and the plan modifiers
 * that make every change of meaning replace the environment while a change of spelling does not.
 */
import { randomBytes } from "node:crypto";
import { MAX_SLUG_LENGTH, SLUG_PATTERN, SLUG_PREFIX_PATTERN } from "../../../domain/slug";
import { UUID_PATTERN } from "../../../domain/uuid";
import { BLOCK_NUMBER_FORMATS, CHAIN_ID_PATTERN, parseBlockNumber, parseChainId, sameBlockNumber } from "../../../domain/chain";
import {
  MAX_ACCOUNTS_PER_NETWORK,
  MAX_NETWORKS_PER_ENVIRONMENT,
  MAX_DISPLAY_NAME_LENGTH,
  MAX_RELAY_DELAY_SECONDS,
  RELAY_MODE_VALUES,
  VERIFICATION_VISIBILITY_VALUES,
} from "../../../domain/environment-rules";
import {
  attr,
  block,
  defineSchema,
  lengthBetween,
  oneOf,
  regex,
  requiresReplace,
  requiresReplaceIf,
  useStateForUnknown,
  validator,
  type Model,
  type PlanModifier,
  type PlanModifierRequest,
} from "../../framework";
import { BALANCE_FORMATS, parseBalance, sameBalance } from "../../../domain/amounts";
import { addressValidator } from "../address";
import { adminRpcUrlsAttribute, publicRpcUrlsAttribute, vnetsAttribute } from "./vnets";

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

/**
 * A chain id written in the configuration replaces the environment when it changes. One left out keeps state's
 * (a clone's, taken from its source); ./environment.ts `planChainIds` plans null instead where nothing is cloned.
 */
const keepChainIdUnlessWritten: PlanModifier<string> = {
  description: "a different chain id replaces the environment; one left out keeps what state holds",
  modify(request: PlanModifierRequest) {
    if (request.creating) return;
    if (request.config === null) return { plan: request.state };
    return requiresReplace().modify(request);
  },
};

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

/** An environment id (import and clone_from take one). */
export const ENVIRONMENT_ID = new RegExp(UUID_PATTERN, "i");

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
    clone_from: attr.string({
      description:
        "Identifier of an environment to clone (chainform's local service; the hosted service has no clones): the new environment's chains start from that environment's current state (contracts, storage, balances, nonces, blocks, transaction records, verified contracts) and then live on their own. The clone takes the source's settings; network_config must name the source's networks, in its order. Changing it replaces the environment.",
      optional: true,
      validators: [regex(ENVIRONMENT_ID, "an environment id (a UUID), e.g. chainform_environment.<name>.id")],
      planModifiers: [requiresReplace()],
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
            "Chain ID the Virtual Environment answers with, as a decimal string (exact at any size: numbers lose precision above 2^53); defaults to the forked network's. The service does not return it: import and refresh read it from the chain (eth_chainId), so a configuration that says another replaces the environment. With clone_from, leave it out: the clone answers with its source's chain id, which state then holds (known after apply); a chain_id written there must be the source's.",
          optional: true,
          // Computed only for clone_from, where the source decides it; ./environment.ts plans null for the others.
          computed: true,
          validators: [chainIdText],
          planModifiers: [keepChainIdUnlessWritten],
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
export type NetworkConfigState = EnvironmentState["network_config"][number];
export type BridgeState = EnvironmentState["bridge"][number];
