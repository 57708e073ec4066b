// Prettier formats the code, the JSON and the YAML (`npm run format`; `npm run format:check` is part of `npm test`).
// Prettier's defaults (double quotes, semicolons, trailing commas, parentheses around arrow parameters) are the code's
// style already. The code was wrapped by hand at 120 to 160 columns; of the widths that keep a line readable beside a
// diff (120, 130, 140), 140 changed the fewest lines in the first format.
// What it leaves alone is in .prettierignore.

/** @type {import("prettier").Config} */
export default {
  printWidth: 140,
  // The web pages' html`...` templates are what the pages serve: formatting them as HTML would change the pages'
  // bytes (whitespace between elements, a tag's `>` moved to the next line), so template contents stay as written.
  embeddedLanguageFormatting: "off",
};
