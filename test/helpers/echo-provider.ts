/**
 * A throwaway provider for testing the framework against real Terraform: `echo_thing` keeps its objects in a JSON
 * file (each provider process is short-lived, so memory would not survive between Terraform's calls), and the
 * `echo_thing` data source looks one up by name. It exercises every schema feature the framework offers.
 */
import { randomUUID } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import {
  at,
  attr,
  between,
  block,
  cty,
  defineDataSource,
  defineProvider,
  defineResource,
  defineSchema,
  oneOf,
  regex,
  requiresReplace,
  useStateForUnknown,
  type Model,
} from "../../lib/terraform/framework";

/** The file-backed store the provider hands to its resources. */
export class EchoStore {
  constructor(readonly path: string) {}

  /** Every object, by id. */
  load(): Record<string, EchoThing> {
    try {
      return JSON.parse(readFileSync(this.path, "utf8")) as Record<string, EchoThing>;
    } catch {
      return {};
    }
  }

  /** Writes one object (or removes it, with null). */
  save(id: string, thing: EchoThing | null): void {
    const all = this.load();
    if (thing) all[id] = thing;
    else delete all[id];
    writeFileSync(this.path, JSON.stringify(all, null, 2));
  }
}

const providerSchema = defineSchema({
  description: "Echo: a provider whose objects live in a JSON file.",
  attributes: {
    store_path: attr.string({ description: "Path of the JSON file holding the objects.", required: true }),
  },
});

const thingSchema = defineSchema({
  description: "A thing that echoes its configuration.",
  attributes: {
    // Required
    name: attr.string({
      description: "Name; changing it replaces the thing.",
      required: true,
      validators: [regex(/^[a-z][a-z0-9-]*$/, "lowercase letters, digits and dashes")],
      planModifiers: [requiresReplace()],
    }),
    // Optional
    description: attr.string({ description: "Free text, updatable in place.", optional: true }),
    size: attr.number({ description: "Size from 1 to 10.", optional: true, default: 1, validators: [between(1, 10)] }),
    flavor: attr.string({ description: "small or large.", optional: true, validators: [oneOf(["small", "large"])] }),
    secret: attr.string({ description: "A secret that never shows in plans.", optional: true, sensitive: true }),
    tags: attr.map(cty.string, { description: "Labels.", optional: true }),
    // Computed
    id: attr.string({ description: "Identifier.", computed: true, planModifiers: [useStateForUnknown()] }),
    revision: attr.number({ description: "Bumped by every update.", computed: true }),
    greeting: attr.string({ description: "Computed from the name.", computed: true, planModifiers: [useStateForUnknown()] }),
  },
  blocks: {
    rule: block.list({
      description: "A rule.",
      maxItems: 5,
      attributes: {
        port: attr.number({ description: "Port.", required: true, validators: [between(1, 65535)] }),
        protocol: attr.string({ description: "Protocol.", optional: true, default: "tcp" }),
      },
    }),
  },
});

/** The state of an echo_thing, as derived from its schema. */
export type EchoThing = Model<typeof thingSchema>;

/** The one function mapping what the "service" holds to state. */
const toState = (thing: EchoThing): EchoThing => ({ ...thing });

const thing = defineResource<typeof thingSchema, EchoStore>({
  typeName: "echo_thing",
  schema: thingSchema,
  validate({ config, diagnostics }) {
    if (config.flavor === "large" && typeof config.size === "number" && config.size < 5) {
      diagnostics.error("Large things are big", "A large thing needs size 5 or more.", at("size"));
    }
  },
  async modifyPlan({ plan, diagnostics }) {
    if (plan.description === "forbidden") {
      diagnostics.error("Forbidden description", 'The service rejects the description "forbidden"; pick another.', at("description"));
    }
  },
  async create({ plan, providerData: store }) {
    const id = randomUUID();
    const created: EchoThing = { ...plan, id, revision: 1, greeting: `hello ${plan.name}` };
    store.save(id, created);
    return toState(created);
  },
  async read({ state, providerData: store }) {
    const found = store.load()[state.id];
    return found ? toState(found) : null;
  },
  async update({ plan, state, providerData: store }) {
    const updated: EchoThing = { ...plan, id: state.id, greeting: state.greeting, revision: state.revision + 1 };
    store.save(state.id, updated);
    return toState(updated);
  },
  async delete({ state, providerData: store }) {
    store.save(state.id, null);
  },
  async importState({ id, diagnostics, providerData: store }) {
    if (!store.load()[id]) {
      diagnostics.error("No such thing", `No echo_thing has id "${id}"; pass the id shown by \`terraform state show\`.`);
      return;
    }
    return { id };
  },
});

const lookupSchema = defineSchema({
  description: "Looks an echo_thing up by name.",
  attributes: {
    name: attr.string({ description: "Name to look up.", required: true }),
    id: attr.string({ description: "Identifier of the thing.", computed: true }),
    size: attr.number({ description: "Its size.", computed: true }),
  },
});

const lookup = defineDataSource<typeof lookupSchema, EchoStore>({
  typeName: "echo_thing",
  schema: lookupSchema,
  async read({ config, providerData: store, diagnostics }) {
    const found = Object.values(store.load()).find((t) => t.name === config.name);
    if (!found) {
      diagnostics.error("Not found", `No echo_thing is named "${config.name}".`, at("name"));
      return;
    }
    return { name: found.name, id: found.id, size: found.size };
  },
});

/** The echo provider. */
export const echoProvider = defineProvider({
  typeName: "echo",
  schema: providerSchema,
  configure: ({ config }) => new EchoStore(config.store_path as string),
  resources: [thing],
  dataSources: [lookup],
});
