import { MAX_BATCH_DELETE_IDS } from "../domain/constants";
import type { Client, Environment } from "../client";

/**
 * Every environment of the client's project, newest first, in pages of 100 (the most the service gives): 3 calls
 * for 250 environments. Collected before anything acts on them, since deleting while paging would skip some.
 * @example
 * const environments = await listAllEnvironments(client);
 */
export async function listAllEnvironments(client: Client): Promise<Environment[]> {
  const all: Environment[] = [];
  for await (const environment of client.iterateEnvironments({ perPage: MAX_BATCH_DELETE_IDS })) all.push(environment);
  return all;
}
