/**
 * `clone_from` of `chainform_environment` (./environment.ts). A clone has its source's networks and answers with its
 * source's chain ids, whatever the configuration says: so a chain_id left out is planned "known after apply" and
 * taken from the clone's chains, one written must be the source's, and networks must be the source's in its order.
 * Each mismatch is an error at the attribute to change, at plan time when the source can be read, else at apply
 * (deleting the clone again).
 */
import { ApiError, cloneEnvironment, type Environment } from "../../../client";
import { at, isKnown, isUnknown, Unknown, type Config, type Diagnostics, type ValuePath } from "../../framework";
import { environmentFieldPath, reportError } from "../errors";
import type { ChainformProviderData } from "../provider-data";
import { keptInState, toState, type Known } from "./environment-conversion";
import type { EnvironmentState, environmentSchema } from "./environment-schema";
import { answeredChainIds } from "./vnets";

type PlannedEnvironment = Config<typeof environmentSchema>;

/**
 * Plans each network's chain_id the configuration leaves out: a clone's is its source's, known after apply (and kept
 * from state afterwards, by the attribute's plan modifier); any other environment's is null, and a prior chain id
 * (read from the chain at import or refresh) that the configuration no longer writes replaces the environment.
 */
export function planChainIds(
  plan: PlannedEnvironment,
  config: PlannedEnvironment,
  state: EnvironmentState | null,
  replace: (path: ValuePath) => void,
): void {
  const writtenNetworks = config.network_config;
  if (isUnknown(plan.network_config) || isUnknown(writtenNetworks)) return;
  const cloning = plan.clone_from !== null;
  plan.network_config.forEach((network, i) => {
    const written = writtenNetworks[i];
    if (isUnknown(network) || !written || isUnknown(written) || written.chain_id !== null) return;
    if (cloning) {
      if (state === null) network.chain_id = Unknown;
      return;
    }
    network.chain_id = null;
    const prior = state?.network_config[i];
    if (prior && prior.chain_id !== null) replace(at("network_config", i, "chain_id"));
  });
}

/** What a clone of `source` would differ in from `planned`: an error per attribute, saying what to write. */
function mismatches(
  diagnostics: Diagnostics,
  source: Environment,
  chainIds: ReadonlyMap<string, string>,
  planned: readonly { network_id: unknown; chain_id: unknown }[],
): boolean {
  const networks = source.networks.map((n) => String(n.network_id));
  const configured = planned.map((n) => n.network_id);
  if (configured.every((id) => isKnown(id)) && configured.join(",") !== networks.join(",")) {
    diagnostics.error(
      "The clone's networks are not the configured ones",
      `Environment ${source.id} has networks ${networks.join(", ")}, and a clone has its source's networks; network_config names ${configured.join(", ")}. Write one network_config per network of the source, in its order: ${networks.map((n) => `network_config { network_id = "${n}" }`).join(", ")}.`,
      at("network_config"),
    );
    return true;
  }
  let found = false;
  planned.forEach((network, i) => {
    const sourceId = networks[i];
    const answered = sourceId === undefined ? undefined : (chainIds.get(sourceId) ?? undefined);
    if (answered === undefined || !isKnown(network.chain_id) || network.chain_id === null || network.chain_id === answered) return;
    found = true;
    diagnostics.error(
      "A clone answers with its source's chain id",
      `Network ${sourceId} of environment ${source.id} answers chain id ${answered}, and so does its clone; network_config[${i}] writes chain_id = "${network.chain_id}". Remove chain_id from that network_config (state then holds ${answered}) or write chain_id = "${answered}".`,
      at("network_config", i, "chain_id"),
    );
  });
  return found;
}

/**
 * Checks a planned clone against its source at plan time: networks and written chain ids. A source that cannot be
 * read is left to the apply, which reports it.
 */
export async function checkPlannedClone(data: ChainformProviderData, diagnostics: Diagnostics, plan: PlannedEnvironment): Promise<void> {
  if (!isKnown(plan.clone_from) || isUnknown(plan.network_config)) return;
  let source: Environment;
  try {
    source = await data.client.getEnvironment({ environmentId: plan.clone_from });
  } catch {
    return;
  }
  const planned = plan.network_config.map((n) => (isUnknown(n) ? { network_id: Unknown, chain_id: Unknown } : n));
  mismatches(diagnostics, source, await answeredChainIds(source, data.caFile), planned);
}

/**
 * Creates the environment as a clone of `sourceId` (`POST .../environments/{id}/clone`): its state from the clone's
 * answer, its chain ids from its chains. A clone that differs from the configuration is deleted again, with the
 * error at the attribute to change.
 */
export async function cloneOf(
  data: ChainformProviderData,
  diagnostics: Diagnostics,
  plan: EnvironmentState,
  sourceId: string,
  slug: string,
): Promise<EnvironmentState | undefined> {
  let created: Environment;
  try {
    created = await cloneEnvironment(data.client, { environmentId: sourceId, display_name: plan.display_name, slug });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      diagnostics.error(
        "No environment to clone",
        `Project ${data.accountSlug}/${data.projectSlug} has no environment ${sourceId} to clone (or the service offers no clones: only chainform's local service does). The service said: ${error.serviceMessage}`,
        at("clone_from"),
      );
      return undefined;
    }
    reportError(diagnostics, data, error, { action: `clone environment ${sourceId}`, fieldPath: environmentFieldPath });
    return undefined;
  }
  const chainIds = await answeredChainIds(created, data.caFile);
  if (mismatches(diagnostics, { ...created, id: sourceId }, chainIds, plan.network_config)) {
    await data.client.deleteEnvironment({ environmentId: created.id, ensureDeleted: true }).catch(() => undefined);
    return undefined;
  }
  return keptInState(toState(created, plan as Known, chainIds), data);
}
