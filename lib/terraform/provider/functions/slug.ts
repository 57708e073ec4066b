/** `slug`: the slug the service derives from a display name (lib/domain/slug.ts), known before anything is created. */
import { cty, defineFunction, type FunctionParameter } from "../../framework";
import { slugify } from "../../../domain/slug";
import { argumentError } from "./arguments";

const parameters: FunctionParameter[] = [{ name: "display_name", type: cty.string, description: 'A display name, e.g. `"CI run 42"`.' }];

/** `provider::chainform::slug("CI run 42")` = `"ci-run-42"`. */
export const slugFunction = defineFunction({
  name: "slug",
  summary: "The slug derived from a display name, as the service and chainform_environment derive it.",
  description:
    'The slug the service gives an environment whose configuration sets no slug: `provider::chainform::slug("CI run 42")` is `"ci-run-42"` (lowercase letters and digits in dash-separated groups). Useful to name things after an environment before it exists, or to look one up by its display name.',
  parameters,
  returns: cty.string,
  run([displayName]) {
    const text = String(displayName);
    if (text.trim() === "") argumentError(parameters, 0, "a display name must not be empty");
    return slugify(text);
  },
});
