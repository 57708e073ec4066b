/** `chainform_environment` (data source): one environment of the project by id or slug, with its RPC URLs. */
import { ApiError, type Environment } from "../../../client";
import { at, attr, defineDataSource, defineSchema, isUnknown, type Model } from "../../framework";
import { reportError } from "../errors";
import { requireProject, type ChainformProviderData } from "../provider-data";
import { keptInState, warnNoAdminRpc } from "../resources/environment";
import { adminRpcUrlsAttribute, endpointsOf, lacksAdminRpc, publicRpcUrlsAttribute, vnetsAttribute } from "../resources/vnets";

/** The data source schema. */
export const environmentDataSchema = defineSchema({
  description: "One environment of the project, by id or slug.",
  attributes: {
    // Optional
    id: attr.string({ description: "Identifier of the environment; give id or slug.", optional: true, computed: true }),
    slug: attr.string({ description: "Slug of the environment; give id or slug.", optional: true, computed: true }),
    // Computed
    display_name: attr.string({ description: "Display name of the environment.", computed: true }),
    created_at: attr.string({ description: "When the environment was created (ISO 8601).", computed: true }),
    instance_id: attr.string({ description: "Identifier of the environment's active instance.", computed: true }),
    vnets: vnetsAttribute(false),
    public_rpc_urls: publicRpcUrlsAttribute(false),
    admin_rpc_urls: adminRpcUrlsAttribute(false),
  },
});

/** The one mapping from the service's environment to state. */
export function toState(environment: Environment): Model<typeof environmentDataSchema> {
  return {
    id: environment.id,
    slug: environment.slug,
    display_name: environment.display_name,
    created_at: environment.created_at,
    instance_id: environment.active_instance.id,
    ...endpointsOf(environment),
  };
}

/** The data source. */
export const environmentDataSource = defineDataSource<typeof environmentDataSchema, ChainformProviderData>({
  typeName: "chainform_environment",
  schema: environmentDataSchema,
  validate({ config, diagnostics }) {
    const given = [config.id, config.slug].filter((v) => v !== null).length;
    if (given !== 1 && !isUnknown(config.id) && !isUnknown(config.slug)) {
      diagnostics.error(
        "Give id or slug",
        "Set exactly one of id and slug to say which environment to read.",
        at(given === 0 ? "id" : "slug"),
      );
    }
  },
  async read({ config, providerData: data, diagnostics }) {
    if (!requireProject(data, diagnostics, "read the environment")) return;
    try {
      const found =
        config.id !== null
          ? await data.client.getEnvironment({ environmentId: config.id })
          : await data.client.getEnvironmentBySlug({ slug: config.slug! });
      if (found) {
        if (lacksAdminRpc(found)) warnNoAdminRpc(diagnostics);
        return keptInState(toState(found), data);
      }
      diagnostics.error(
        "No such environment",
        `Project ${data.accountSlug}/${data.projectSlug} has no environment with slug "${config.slug}".`,
        at("slug"),
      );
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        diagnostics.error(
          "No such environment",
          `Project ${data.accountSlug}/${data.projectSlug} has no environment with id ${config.id}; a slug works too (slug = "...").`,
          at("id"),
        );
        return;
      }
      reportError(diagnostics, data, error, { action: "read the environment" });
    }
    return undefined;
  },
});
