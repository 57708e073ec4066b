/** `chainform_project`: one project of an account, by slug. */
import type { Project } from "../../../client";
import { at, attr, defineDataSource, defineSchema, type Model } from "../../framework";
import { reportError } from "../errors";
import type { ChainformProviderData } from "../provider-data";
import { projectFields } from "./projects";

/** The data source schema. */
export const projectSchema = defineSchema({
  description: "One project, by slug.",
  attributes: {
    // Required
    slug: attr.string({ description: "Slug of the project.", required: true }),
    // Optional
    account_slug: attr.string({ description: "Account slug; defaults to the provider's account_slug.", optional: true }),
    // Computed
    id: attr.string({ description: "Identifier of the project.", computed: true }),
    name: attr.string({ description: "Name of the project.", computed: true }),
    owner_id: attr.string({ description: "Identifier of the project's owner.", computed: true }),
    public: attr.bool({ description: "Whether the project is public.", computed: true }),
    restricted: attr.bool({ description: "Whether the project is restricted to its members.", computed: true }),
    created_at: attr.string({ description: "When the project was created (ISO 8601).", computed: true }),
    number_of_users: attr.number({ description: "How many users the project has.", computed: true }),
  },
});

/** The one mapping from the service's project to state. */
export function toState(project: Project, accountSlug: string | null): Model<typeof projectSchema> {
  return { ...projectFields(project), account_slug: accountSlug };
}

/** The data source. */
export const projectDataSource = defineDataSource<typeof projectSchema, ChainformProviderData>({
  typeName: "chainform_project",
  schema: projectSchema,
  async read({ config, providerData: data, diagnostics }) {
    const accountSlug = config.account_slug ?? data.accountSlug;
    if (!accountSlug) {
      diagnostics.error(
        "No account selected",
        "Set account_slug here, or account_slug / CHAINFORM_ACCOUNT for the provider.",
        at("account_slug"),
      );
      return;
    }
    try {
      const projects = await data.client.listProjects({ accountSlug });
      const found = projects.find((p) => p.slug === config.slug);
      if (!found) {
        diagnostics.error(
          "No such project",
          `Account ${accountSlug} has no project "${config.slug}" that these credentials can see. Visible: ${projects.map((p) => p.slug).join(", ") || "none"}.`,
          at("slug"),
        );
        return;
      }
      return toState(found, config.account_slug);
    } catch (error) {
      reportError(diagnostics, data, error, { action: `look up project ${accountSlug}/${config.slug}` });
      return;
    }
  },
});
