/** Helpers every route family shares: response schemas with the error body, the requester, pagination. */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { TSchema } from "@sinclair/typebox";
import { DEFAULT_PER_PAGE, ErrorBody, type PaginationQuery, type ProjectParams } from "../../api";
import { projectAccess, type ProjectAccess } from "../auth/access";
import type { Requester } from "../auth";
import { unauthorized } from "../errors";

/** A route's response schemas: the success ones given, and the spec's error body for every 4xx and 5xx. */
export function replies<T extends Record<number, TSchema>>(success: T): T & { "4xx": typeof ErrorBody; "5xx": typeof ErrorBody } {
  return { ...success, "4xx": ErrorBody, "5xx": ErrorBody };
}

/** The authenticated requester of a route that needs one (the request hook has checked it). */
export function requesterOf(request: { readonly requester: Requester | null }): Requester {
  if (!request.requester) throw unauthorized("missing credentials: send X-Access-Key, Basic or Bearer");
  return request.requester;
}

/** Page and page size with the spec's defaults (page 1, 20 per page). */
export function pageOf(query: PaginationQuery): { page: number; perPage: number } {
  return { page: query.page ?? 1, perPage: query.perPage ?? DEFAULT_PER_PAGE };
}

/** One page of a list held in memory. */
export function pageSlice<T>(items: readonly T[], { page, perPage }: { page: number; perPage: number }): T[] {
  return items.slice((page - 1) * perPage, page * perPage);
}

/** The base URL RPC URLs are built on: the server's, else the request's own scheme and host. */
export function baseUrlOf(request: FastifyRequest): string {
  return request.server.service.baseUrl ?? `${request.protocol}://${request.host}`;
}

/** What a project-scoped route's request carries. */
export interface ProjectRequest {
  readonly server: FastifyInstance;
  readonly requester: Requester | null;
  readonly params: ProjectParams;
}

/** The project a project-scoped path names, if the requester may see it (404/403 otherwise). */
export function projectOf(request: ProjectRequest): ProjectAccess["project"] {
  const { accountSlug, projectSlug } = request.params;
  return projectAccess(request.server.service.store, requesterOf(request), accountSlug, projectSlug).project;
}
