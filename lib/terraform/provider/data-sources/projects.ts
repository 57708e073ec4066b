/** `chainform_projects`: the projects of an account that the credentials can see. */
import type { Project } from "../../../client";
import { attr, cty, defineDataSource, defineSchema, type Model } from "../../framework";
import { reportError } from "../errors";
import type { ChainformProviderData } from "../provider-data";

/** The object type of one project in `projects`. */
export const projectObject = cty.object({
  id: cty.string,
  name: cty.string,
  slug: cty.string,
  owner_id: cty.string,
  public: cty.bool,
  restricted: cty.bool,
  created_at: cty.string,
  number_of_users: cty.number,
});

/** The data source schema. */
export const projectsSchema = defineSchema({
  description: "The projects of an account that the credentials can see.",
  attributes: {
    // Optional
    account_slug: attr.string({ description: "Account slug; defaults to the provider's account_slug.", optional: true }),
    // Computed
    projects: attr.list(projectObject, {
      description: "The account's projects: id, name, slug, owner_id, public, restricted, created_at, number_of_users.",
      computed: true,
    }),
  },
});

/** One project's fields as the data sources expose them. */
export function projectFields(p: Project) {
  return {
    id: p.id,
    name: p.name,
    slug: p.slug,
    owner_id: p.owner_id,
    public: p.public,
    restricted: p.restricted,
    created_at: p.created_at,
    number_of_users: p.number_of_users,
  };
}

/** The one mapping from the service's list to state. */
export function toState(projects: readonly Project[], accountSlug: string | null): Model<typeof projectsSchema> {
  return { account_slug: accountSlug, projects: projects.map(projectFields) };
}

/** The data source. */
export const projectsDataSource = defineDataSource<typeof projectsSchema, ChainformProviderData>({
  typeName: "chainform_projects",
  schema: projectsSchema,
  async read({ config, providerData: data, diagnostics }) {
    const accountSlug = config.account_slug ?? data.accountSlug;
    if (!accountSlug) {
      diagnostics.error("No account selected", "Set account_slug here, or account_slug / CHAINFORM_ACCOUNT for the provider.");
      return;
    }
    try {
      return toState(await data.client.listProjects({ accountSlug }), config.account_slug);
    } catch (error) {
      reportError(diagnostics, data, error, { action: `list the projects of ${accountSlug}` });
      return;
    }
  },
});
