/** `chainform projects [--json]`: the projects of CHAINFORM_ACCOUNT the key can see. */
import { lookupCommand } from "../lookup-command";

export default lookupCommand({
  name: "projects",
  summary: "list the projects of the account (CHAINFORM_ACCOUNT) that the key can see",
  noun: "projects",
  notes: "Uses CHAINFORM_BASE_URL, CHAINFORM_ACCESS_KEY (or CHAINFORM_BEARER_TOKEN) and CHAINFORM_ACCOUNT.",
  fetch: (client) => client.listProjects(),
  headers: ["SLUG", "NAME", "ACCESS", "USERS", "ID"],
  row: (p) => [p.slug, p.name, p.restricted ? "restricted" : p.public ? "public" : "open", String(p.number_of_users), p.id],
});
