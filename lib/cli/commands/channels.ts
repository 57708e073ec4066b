/** `chainform channels [--json]`: the delivery channels (alert destinations) of CHAINFORM_ACCOUNT. */
import { lookupCommand } from "../lookup-command";

export default lookupCommand({
  name: "channels",
  summary: "list the account's delivery channels (email, slack, ...)",
  noun: "delivery channels",
  notes: "Uses CHAINFORM_BASE_URL, CHAINFORM_ACCESS_KEY (or CHAINFORM_BEARER_TOKEN) and CHAINFORM_ACCOUNT.",
  fetch: (client) => client.listDeliveryChannels(),
  headers: ["TYPE", "LABEL", "ENABLED", "ID"],
  row: (c) => [c.type, c.label, c.enabled ? "yes" : "no", c.id],
});
