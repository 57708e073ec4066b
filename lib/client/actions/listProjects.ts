import type { Project } from "../../api";
import type { BaseClient } from "../client";
import type { RequestErrorType } from "../errors";
import { accountPath, type AccountScope } from "../utils/scope";
import { list } from "../utils/shape";

/** Parameters of {@link listProjects}. */
export type ListProjectsParameters = AccountScope;
/** The account's projects plus those shared with the requester. */
export type ListProjectsReturnType = Project[];
/** Errors {@link listProjects} can throw. */
export type ListProjectsErrorType = RequestErrorType;

/**
 * Lists the projects of an account that the key can see: `GET /v1/account/{accountSlug}/projects`.
 *
 * @example
 * const projects = await listProjects(client, { accountSlug: "acme" })
 */
export async function listProjects(client: BaseClient, params: ListProjectsParameters = {}): Promise<ListProjectsReturnType> {
  return client.request({ method: "GET", path: `${accountPath(client, params)}/projects`, parse: list<Project>("projects") });
}
