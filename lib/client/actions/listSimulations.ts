import type { PaginationQuery, Simulation } from "../../api";
import type { BaseClient } from "../client";
import type { RequestErrorType } from "../errors";
import { paginate } from "../utils/paginate";
import { projectPath, type ProjectScope } from "../utils/scope";
import { list } from "../utils/shape";

/** Parameters of {@link listSimulations}: a page (`page` from 1, `perPage` up to 100, default 20). */
export type ListSimulationsParameters = PaginationQuery & ProjectScope;
/** One page of saved simulations, newest first. */
export type ListSimulationsReturnType = Simulation[];
/** Errors {@link listSimulations} can throw. */
export type ListSimulationsErrorType = RequestErrorType;

/**
 * Lists one page of the project's saved simulations: `GET /v1/account/{a}/project/{p}/simulations`.
 *
 * @example
 * const latest = await listSimulations(client, { perPage: 10 })
 */
export async function listSimulations(client: BaseClient, params: ListSimulationsParameters = {}): Promise<ListSimulationsReturnType> {
  return client.request({
    method: "GET",
    path: `${projectPath(client, params)}/simulations`,
    query: { page: params.page, perPage: params.perPage },
    parse: list<Simulation>("simulations"),
  });
}

/**
 * Iterates over every saved simulation of the project, fetching pages of 100 as needed.
 *
 * @example
 * for await (const sim of iterateSimulations(client)) console.log(sim.id)
 */
export function iterateSimulations(
  client: BaseClient,
  params: ProjectScope & { perPage?: number } = {},
): AsyncGenerator<Simulation, void, undefined> {
  return paginate((page, perPage) => listSimulations(client, { ...params, page, perPage }), params.perPage ?? 100);
}
