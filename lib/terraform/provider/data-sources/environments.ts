/** `chainform_environments`: the project's environments, newest first, optionally by slug prefix. */
import type { Environment } from "../../../client";
import { attr, cty, defineDataSource, defineSchema, type Model } from "../../framework";
import { reportError } from "../errors";
import { requireProject, type ChainformProviderData } from "../provider-data";
import { endpointsOf } from "../resources/vnets";

/** The data source schema. */
export const environmentsSchema = defineSchema({
  description: "The project's environments, newest first.",
  attributes: {
    // Optional
    slug_prefix: attr.string({ description: "Only environments whose slug starts with this prefix.", optional: true }),
    // Computed
    environments: attr.list(
      cty.object({
        id: cty.string,
        slug: cty.string,
        display_name: cty.string,
        created_at: cty.string,
        instance_id: cty.string,
        public_rpc_urls: cty.map(cty.string),
      }),
      {
        description: "The environments: id, slug, display_name, created_at, instance_id and public_rpc_urls (by network_id).",
        computed: true,
      },
    ),
  },
});

/** The one mapping from the service's environments to state. */
export function toState(environments: readonly Environment[], slugPrefix: string | null): Model<typeof environmentsSchema> {
  return {
    slug_prefix: slugPrefix,
    environments: environments
      .filter((e) => slugPrefix === null || e.slug.startsWith(slugPrefix))
      .map((e) => ({
        id: e.id,
        slug: e.slug,
        display_name: e.display_name,
        created_at: e.created_at,
        instance_id: e.active_instance.id,
        public_rpc_urls: endpointsOf(e).public_rpc_urls,
      })),
  };
}

/** The data source. */
export const environmentsDataSource = defineDataSource<typeof environmentsSchema, ChainformProviderData>({
  typeName: "chainform_environments",
  schema: environmentsSchema,
  async read({ config, providerData: data, diagnostics }) {
    if (!requireProject(data, diagnostics, "list the environments")) return;
    try {
      const all: Environment[] = [];
      for await (const environment of data.client.iterateEnvironments()) all.push(environment);
      return toState(all, config.slug_prefix);
    } catch (error) {
      reportError(diagnostics, data, error, { action: "list the environments" });
      return;
    }
  },
});
