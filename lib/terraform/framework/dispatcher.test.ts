import { decodeDynamicValue, encodeDynamicValue } from "../protocol/dynamic-value";
import { Unknown, isUnknown } from "../protocol/cty/unknown";
import type { ProviderServer } from "../protocol/provider-server";
import { defineProvider } from "./provider";
import { defineResource } from "./resource";
import { attr, block, defineSchema } from "./schema";
import { blockType } from "./schema-wire";
import { createProviderServer } from "./dispatcher";
import { useStateForUnknown } from "./plan-modifiers";

const schema = defineSchema({
  description: "A note.",
  version: 1,
  attributes: {
    text: attr.string({ description: "Text.", required: true }),
    size: attr.number({ description: "Size.", optional: true, default: 2 }),
    id: attr.string({ description: "Id.", computed: true, planModifiers: [useStateForUnknown()] }),
  },
  blocks: {
    part: block.list({ description: "Part.", maxItems: 2, attributes: { n: attr.number({ description: "N.", required: true }) } }),
  },
});
const type = blockType(schema);
type Store = Map<string, { text: string; size: number; part: { n: number }[] }>;

const calls: string[] = [];
const note = defineResource<typeof schema, Store>({
  typeName: "test_note",
  schema,
  async create({ plan, providerData: store }) {
    calls.push("create");
    store.set("n1", { text: plan.text, size: plan.size, part: plan.part });
    return { ...plan, id: "n1" };
  },
  async read({ state, providerData: store }) {
    calls.push("read");
    const found = store.get(state.id);
    return found ? { ...found, id: state.id } : null;
  },
  async update({ plan, state }) {
    calls.push("update");
    return { ...plan, id: state.id };
  },
  async delete({ state, providerData: store }) {
    calls.push("delete");
    store.delete(state.id);
  },
  async importState({ id }) {
    return { id };
  },
  upgradeState: ({ state }) => ({ text: state.body, id: state.id }),
});
const noUpdate = defineResource<typeof schema, Store>({
  typeName: "test_frozen",
  schema,
  async create({ plan }) {
    return { ...plan, id: Unknown as never }; // a bug: apply must not leave unknowns
  },
  async read() {
    return null;
  },
  async delete() {},
});

let store: Store;
let server: ProviderServer;
const signal = new AbortController().signal;
const dv = (value: unknown) => encodeDynamicValue(value as never, type);
const state = (over: Record<string, unknown> = {}) => ({ text: "hi", size: 2, id: "n1", part: [], ...over });

beforeEach(async () => {
  calls.length = 0;
  store = new Map();
  const providerSchema = defineSchema({ description: "p", attributes: { prefix: attr.string({ description: "x", optional: true }) } });
  server = createProviderServer(async () =>
    defineProvider({ typeName: "test", schema: providerSchema, configure: () => store, resources: [note, noUpdate] }),
  );
  await server.configureProvider!(
    { terraform_version: "1.11.4", config: encodeDynamicValue({ prefix: null }, blockType(providerSchema)), client_capabilities: null },
    { signal },
  );
});

test("GetProviderSchema describes attributes, defaults as computed, blocks and versions", async () => {
  const response = await server.getProviderSchema!({}, { signal });
  expect(response.server_capabilities).toEqual({ get_provider_schema_optional: true, plan_destroy: false });
  const noteSchema = response.resource_schemas!.test_note!;
  expect(noteSchema.version).toBe(1);
  const size = noteSchema.block.attributes.find((a) => a.name === "size")!;
  expect(size).toMatchObject({ optional: true, computed: true, description: "Size." });
  expect(Buffer.from(size.type).toString()).toBe('"number"');
  expect(noteSchema.block.block_types[0]).toMatchObject({ type_name: "part", nesting: "LIST", max_items: 2 });
});

test("ApplyResourceChange dispatches create, update and delete by which state is null", async () => {
  const base = { type_name: "test_note", config: dv(state({ id: null })), planned_private: Buffer.alloc(0), provider_meta: null };
  const created = await server.applyResourceChange!(
    { ...base, prior_state: dv(null), planned_state: dv(state({ id: Unknown })) },
    { signal },
  );
  expect(decodeDynamicValue(created.new_state, type)).toEqual(state());
  await server.applyResourceChange!({ ...base, prior_state: dv(state()), planned_state: dv(state({ text: "new" })) }, { signal });
  const deleted = await server.applyResourceChange!({ ...base, prior_state: dv(state()), planned_state: dv(null) }, { signal });
  expect(decodeDynamicValue(deleted.new_state, type)).toBeNull();
  expect(calls).toEqual(["create", "update", "delete"]);
  expect(created.diagnostics).toEqual([]);
});

test("an unknown left after apply is reported as a provider bug, naming the attribute", async () => {
  const response = await server.applyResourceChange!(
    {
      type_name: "test_frozen",
      prior_state: dv(null),
      planned_state: dv(state({ id: Unknown })),
      config: dv(state({ id: null })),
      planned_private: Buffer.alloc(0),
      provider_meta: null,
    },
    { signal },
  );
  expect(response.diagnostics![0]).toMatchObject({
    severity: "ERROR",
    summary: "test_frozen: invalid state for id",
    attribute: { steps: [{ attribute_name: "id" }] },
  });
});

test("ReadResource returns null state when the object is gone, so Terraform drops it", async () => {
  const gone = await server.readResource!(
    { type_name: "test_note", current_state: dv(state()), private: Buffer.alloc(0), provider_meta: null, client_capabilities: null },
    { signal },
  );
  expect(decodeDynamicValue(gone.new_state, type)).toBeNull();
  store.set("n1", { text: "remote", size: 3, part: [{ n: 1 }] });
  const found = await server.readResource!(
    { type_name: "test_note", current_state: dv(state()), private: Buffer.alloc(0), provider_meta: null, client_capabilities: null },
    { signal },
  );
  expect(decodeDynamicValue(found.new_state, type)).toEqual({ text: "remote", size: 3, id: "n1", part: [{ n: 1 }] });
});

test("PlanResourceChange of a resource without update marks changed attributes as forcing replacement", async () => {
  const response = await server.planResourceChange!(
    {
      type_name: "test_frozen",
      prior_state: dv(state()),
      proposed_new_state: dv(state({ text: "changed" })),
      config: dv(state({ text: "changed", id: null, size: null })),
      prior_private: Buffer.alloc(0),
      provider_meta: null,
      client_capabilities: null,
    },
    { signal },
  );
  expect(response.requires_replace).toEqual([{ steps: [{ attribute_name: "text" }] }]);
  const planned = decodeDynamicValue(response.planned_state, type) as Record<string, unknown>;
  expect(planned.id).toBe("n1");
});

test("ImportResourceState fills the other attributes with null and empty blocks", async () => {
  const response = await server.importResourceState!({ type_name: "test_note", id: "n9", client_capabilities: null }, { signal });
  expect(response.imported_resources![0]!.type_name).toBe("test_note");
  expect(decodeDynamicValue(response.imported_resources![0]!.state, type)).toEqual({ text: null, size: null, id: "n9", part: [] });
});

test("UpgradeResourceState re-encodes same-version JSON (dropping removed attributes) and upgrades older versions", async () => {
  const same = await server.upgradeResourceState!(
    {
      type_name: "test_note",
      version: 1,
      raw_state: { json: Buffer.from('{"text":"a","size":2,"id":"n1","part":[],"removed":true}'), flatmap: {} },
    },
    { signal },
  );
  expect(decodeDynamicValue(same.upgraded_state, type)).toEqual({ text: "a", size: 2, id: "n1", part: [] });
  const old = await server.upgradeResourceState!(
    { type_name: "test_note", version: 0, raw_state: { json: Buffer.from('{"body":"b","id":"n2"}'), flatmap: {} } },
    { signal },
  );
  expect(decodeDynamicValue(old.upgraded_state, type)).toEqual({ text: "b", size: null, id: "n2", part: [] });
  const newer = await server.upgradeResourceState!(
    { type_name: "test_note", version: 7, raw_state: { json: Buffer.from("{}"), flatmap: {} } },
    { signal },
  );
  expect(newer.diagnostics![0]!.summary).toBe("State written by a newer provider");
});

test("unknown resource types are errors", async () => {
  await expect(
    server.validateResourceConfig!({ type_name: "test_nope", config: null, client_capabilities: null }, { signal }),
  ).rejects.toThrow('this provider has no resource type "test_nope"');
});

test("ValidateResourceConfig runs the schema validators and skips unknowns", async () => {
  const response = await server.validateResourceConfig!(
    { type_name: "test_note", config: dv(state({ id: null, text: Unknown })), client_capabilities: null },
    { signal },
  );
  expect(response.diagnostics).toEqual([]);
  expect(isUnknown(decodeDynamicValue(dv(Unknown), type))).toBe(true);
});

test("keepInPlace withdraws replacements under a path, and importState's private data reaches Terraform", async () => {
  // GIVEN a resource whose modifyPlan asks to replace for text and part, then keeps part in place, and whose import
  // remembers that it imported
  const kept = defineResource<typeof schema, Store>({
    ...note,
    typeName: "test_kept",
    modifyPlan({ state, requiresReplace, keepInPlace }) {
      if (state === null) return;
      requiresReplace([{ attribute: "text" }]);
      requiresReplace([{ attribute: "part" }, { index: 0 }, { attribute: "n" }]);
      keepInPlace([{ attribute: "part" }]);
    },
    async importState({ id, setPrivate }) {
      setPrivate({ imported: true });
      return { id };
    },
  });
  const providerSchema = defineSchema({ description: "p", attributes: {} });
  const local = createProviderServer(async () =>
    defineProvider({ typeName: "test", schema: providerSchema, configure: () => store, resources: [kept] }),
  );
  await local.configureProvider!(
    { terraform_version: "1.11.4", config: encodeDynamicValue({}, blockType(providerSchema)), client_capabilities: null },
    { signal },
  );
  // WHEN it plans a change
  const plan = await local.planResourceChange!(
    {
      type_name: "test_kept",
      prior_state: dv(state()),
      proposed_new_state: dv(state({ text: "x", part: [{ n: 1 }] })),
      config: dv(state({ text: "x", id: null, part: [{ n: 1 }] })),
      prior_private: Buffer.alloc(0),
      provider_meta: null,
      client_capabilities: null,
    },
    { signal },
  );
  // THEN only text forces replacement
  expect(plan.requires_replace).toEqual([{ steps: [{ attribute_name: "text" }] }]);
  // AND an import carries the private data
  const imported = await local.importResourceState!({ type_name: "test_kept", id: "n9", client_capabilities: null }, { signal });
  expect(JSON.parse(Buffer.from(imported.imported_resources![0]!.private!).toString())).toEqual({ imported: true });
});
