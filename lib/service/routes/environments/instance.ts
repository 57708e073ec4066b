/** Resolves the environment instance (and vnet) a path names, inside a project the requester may see. */
import type { EnvironmentRecord, Store, VnetRecord } from "../../store";
import { notFound } from "../../errors";

/** The environment whose active instance is `instanceId`; 404 `rid:vnet` otherwise. */
export function instanceOf(store: Store, projectId: string, environmentId: string, instanceId: string): EnvironmentRecord {
  const environment = store.environments.get(projectId, environmentId);
  if (!environment) throw notFound("rid:vnet", `environment ${environmentId} not found`);
  if (environment.instance_id !== instanceId)
    throw notFound("rid:vnet", `instance ${instanceId} not found in environment ${environmentId}`);
  return environment;
}

/** A vnet of an environment instance; 404 `rid:vnet` otherwise. */
export function instanceVnetOf(
  store: Store,
  projectId: string,
  params: { environmentId: string; instanceId: string; vnetId: string },
): VnetRecord {
  const environment = instanceOf(store, projectId, params.environmentId, params.instanceId);
  const vnet = environment.vnets.find((v) => v.id === params.vnetId);
  if (!vnet) throw notFound("rid:vnet", `Virtual Environment ${params.vnetId} not found in instance ${params.instanceId}`);
  return vnet;
}
