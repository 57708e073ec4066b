/**
 * What the dashboard's routes look up for a signed-in user, with the API's access rules (lib/service/auth/access.ts, which
 * lib/service/web-interface.ts offers): a project, an environment, a saved simulation; and the writer check every
 * change makes. A project or environment the user may not see is the same 404 the API answers.
 */
import type { FastifyRequest } from "fastify";
import type { Simulation } from "../../api";
import {
  baseUrlOf,
  ServiceError,
  type EnvironmentRecord,
  type Principal,
  type ProjectRow,
  type ServiceForWeb,
  type StoreViews,
} from "../../service/web-interface";
import type { Session } from "./sessions";

/** Route parameters of a project page. */
export type ProjectParams = { account: string; project: string };
/** Route parameters of an environment page. */
export type EnvironmentParams = ProjectParams & { environmentId: string };

/** Saved simulations searched for one by id (newest first). */
const SIMULATION_SCAN_LIMIT = 1000;

/** A project the session may see (404 otherwise). */
export function projectOf(service: ServiceForWeb, session: Session, params: ProjectParams): { account: Principal; project: ProjectRow } {
  const access = service.access.project(session.requester, params.account, params.project);
  return { account: access.account, project: access.project };
}

/** An environment of a project the session may see, with the project's dashboard path (404 otherwise). */
export function environmentOf(
  service: ServiceForWeb,
  session: Session,
  params: EnvironmentParams,
): { environment: EnvironmentRecord; project: ProjectRow; base: string } {
  const { project } = projectOf(service, session, params);
  const environment = service.views.environments.get(project.id, params.environmentId);
  if (!environment) throw new ServiceError(404, `environment ${params.environmentId} not found in ${params.account}/${params.project}`);
  return { environment, project, base: `/dashboard/${params.account}/${project.slug}` };
}

/** A saved simulation of a project by id, among the newest 1000. */
export function findSimulation(views: StoreViews, projectId: string, id: string): Simulation | undefined {
  for (let pageNumber = 1; pageNumber * 100 <= SIMULATION_SCAN_LIMIT; pageNumber++) {
    const simulations = views.records.simulations(projectId, pageNumber, 100);
    const found = simulations.find((s) => s.id === id);
    if (found || simulations.length < 100) return found;
  }
  return undefined;
}

/** 403 for a read-only user. */
export function requireWriter(session: Session): void {
  if (session.requester.readOnly) throw new ServiceError(403, "your access is read-only: you cannot change this");
}

/** A vnet's Public RPC URL as this request reaches the service. */
export function publicRpc(request: FastifyRequest, vnetId: string): string {
  return `${baseUrlOf(request)}/rpc/public/${vnetId}`;
}
