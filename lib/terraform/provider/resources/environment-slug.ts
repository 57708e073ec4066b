/**
 * What `chainform_environment` (./environment.ts) says of a slug another environment holds: a warning at plan, and
 * the commands that resolve it.
 */
import type { Environment } from "../../../client";
import type { at, Diagnostics } from "../../framework";
import type { ChainformProviderData } from "../provider-data";

/**
 * Warns when another environment than `ignoreId` (the one being replaced) holds `slug`: the create will fail at
 * apply (or, with adopt_existing, adopt a matching environment). A warning, never an error: `terraform destroy`
 * runs a normal plan first, and an error here would make destroy impossible while such an environment exists.
 */
export async function warnTakenSlug(
  data: ChainformProviderData,
  diagnostics: Diagnostics,
  slug: string,
  ignoreId: unknown,
  path: ReturnType<typeof at>,
): Promise<void> {
  let existing: Environment | null;
  try {
    existing = await data.lookups.environmentBySlug(slug);
  } catch {
    return; // Only advice: the create itself reports a taken slug.
  }
  if (!existing || existing.id === ignoreId) return;
  if (data.adoptExisting) {
    diagnostics.warning(
      "An environment with this slug already exists",
      `Project ${data.accountSlug}/${data.projectSlug} already has environment ${existing.id} with slug "${existing.slug}". adopt_existing is on: apply adopts it if its display name and networks match this configuration, and fails otherwise.`,
      path,
    );
  } else {
    diagnostics.warning(
      "An environment with this slug already exists: apply will fail",
      `Project ${data.accountSlug}/${data.projectSlug} already has environment ${existing.id} with slug "${existing.slug}" ("${existing.display_name}"). ${takenSlugAdvice(data, existing)}`,
      path,
    );
  }
}

/** The advice for a slug held by an environment this resource does not manage: commands that work. */
export function takenSlugAdvice(data: ChainformProviderData, existing: Environment): string {
  return (
    `To manage that environment with Terraform, import it (use this resource's address, shown above):\n\n` +
    `  terraform import <address> ${existing.id}\n\n` +
    `or set adopt_existing = true in the provider block (adoptExisting: true on ChainformProvider in a CDK app) to adopt it if it matches this configuration, or choose another slug. ` +
    `If it is the environment this resource is replacing with lifecycle { create_before_destroy = true }, a fixed slug cannot work: ` +
    `replace slug with slug_prefix so that each replacement gets a fresh slug. ` +
    `List the project's environments with \`chainform environments\` (CHAINFORM_ACCOUNT=${data.accountSlug} CHAINFORM_PROJECT=${data.projectSlug}).`
  );
}
