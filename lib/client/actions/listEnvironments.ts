import type { Environment, PaginationQuery } from "../../api";
import type { BaseClient } from "../client";
import type { RequestErrorType } from "../errors";
import { environmentsPath, type ProjectScope } from "../utils/scope";
import { list } from "../utils/shape";

/** Parameters of {@link listEnvironments}: a page (`page` from 1, `perPage` up to 100, default 20). */
export type ListEnvironmentsParameters = PaginationQuery & ProjectScope;
/** One page of environments, newest first. */
export type ListEnvironmentsReturnType = Environment[];
/** Errors {@link listEnvironments} can throw. */
export type ListEnvironmentsErrorType = RequestErrorType;

/**
 * Lists one page of the project's environments: `GET /public/v1/account/{a}/project/{p}/environments`.
 * Accepts `{ environments: [...] }` and a bare array. Use {@link iterateEnvironments} to walk all pages.
 *
 * @example
 * const firstPage = await listEnvironments(client, { perPage: 100 })
 */
export async function listEnvironments(client: BaseClient, params: ListEnvironmentsParameters = {}): Promise<ListEnvironmentsReturnType> {
  return client.request({
    method: "GET",
    path: environmentsPath(client, params),
    query: { page: params.page, perPage: params.perPage },
    parse: list<Environment>("environments"),
  });
}
