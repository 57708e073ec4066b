import { Unknown, UnknownValue, isUnknown } from "../protocol/cty/unknown";
import { planResourceChange } from "./plan";
import { requiresReplace, requiresReplaceIf, useStateForUnknown } from "./plan-modifiers";
import { attr, block, defineSchema } from "./schema";

const schema = defineSchema({
  description: "test",
  attributes: {
    name: attr.string({ description: "n", required: true, planModifiers: [requiresReplace()] }),
    note: attr.string({ description: "d", optional: true }),
    size: attr.number({ description: "s", optional: true, default: 1 }),
    id: attr.string({ description: "i", computed: true, planModifiers: [useStateForUnknown()] }),
    revision: attr.number({ description: "r", computed: true }),
    label: attr.string({ description: "l", optional: true, computed: true }),
  },
  blocks: {
    rule: block.list({
      description: "r",
      attributes: {
        port: attr.number({ description: "p", required: true, planModifiers: [requiresReplace()] }),
        protocol: attr.string({ description: "p", optional: true, default: "tcp" }),
        rule_id: attr.string({ description: "i", computed: true, planModifiers: [useStateForUnknown()] }),
      },
    }),
    tagset: block.set({
      description: "t",
      attributes: { key: attr.string({ description: "k", required: true, planModifiers: [requiresReplace()] }) },
    }),
  },
});

const config = (over: Record<string, unknown> = {}) => ({
  name: "a",
  note: null,
  size: null,
  id: null,
  revision: null,
  label: null,
  rule: [],
  tagset: [],
  ...over,
});
const prior = (over: Record<string, unknown> = {}) => ({
  name: "a",
  note: null,
  size: 1,
  id: "id-1",
  revision: 3,
  label: "from-service",
  rule: [],
  tagset: [],
  ...over,
});
// Terraform's proposed new state: configuration, with computed attributes the configuration leaves null taken from
// the prior state.
const proposed = (cfg: Record<string, unknown>, old: Record<string, unknown> | null) => {
  const out: Record<string, unknown> = { ...cfg };
  for (const key of ["id", "revision", "label", "size"]) if (cfg[key] === null && old) out[key] = old[key];
  return out;
};

describe("planResourceChange: create", () => {
  const cfg = config({ rule: [{ port: 80, protocol: null, rule_id: null }] });
  const { planned, requiresReplace: replace } = planResourceChange(schema, {
    prior: null,
    proposed: proposed(cfg, null) as never,
    config: cfg as never,
  });
  const plan = planned as Record<string, any>;

  test("computed attributes the configuration leaves out are unknown", () => {
    expect(isUnknown(plan.id)).toBe(true);
    expect(isUnknown(plan.revision)).toBe(true);
    expect(isUnknown(plan.label)).toBe(true);
    expect(isUnknown(plan.rule[0].rule_id)).toBe(true);
  });

  test("defaults fill what the configuration leaves out, nested blocks included", () => {
    expect(plan.size).toBe(1);
    expect(plan.rule[0].protocol).toBe("tcp");
  });

  test("configured values are planned as configured and creating replaces nothing", () => {
    expect(plan.name).toBe("a");
    expect(plan.note).toBeNull();
    expect(replace).toEqual([]);
  });
});

describe("planResourceChange: update", () => {
  test("an unchanged resource plans exactly its prior state (no-op plan)", () => {
    const old = prior({ rule: [{ port: 80, protocol: "tcp", rule_id: "r1" }] });
    const cfg = config({ rule: [{ port: 80, protocol: null, rule_id: null }] });
    const prop = { ...proposed(cfg, old), rule: [{ port: 80, protocol: "tcp", rule_id: "r1" }] };
    const { planned, requiresReplace: replace } = planResourceChange(schema, {
      prior: old as never,
      proposed: prop as never,
      config: cfg as never,
    });
    expect(planned).toEqual(old);
    expect(replace).toEqual([]);
  });

  test("a change makes computed values unknown, except useStateForUnknown ones, which keep their prior value", () => {
    const old = prior();
    const cfg = config({ note: "changed" });
    const { planned } = planResourceChange(schema, { prior: old as never, proposed: proposed(cfg, old) as never, config: cfg as never });
    const plan = planned as Record<string, unknown>;
    expect(plan.note).toBe("changed");
    expect(plan.id).toBe("id-1");
    expect(isUnknown(plan.revision)).toBe(true);
    expect(isUnknown(plan.label)).toBe(true);
    expect(plan.size).toBe(1);
  });

  test("an optional+computed attribute set in configuration keeps the configured value", () => {
    const old = prior();
    const cfg = config({ label: "mine" });
    const { planned } = planResourceChange(schema, { prior: old as never, proposed: proposed(cfg, old) as never, config: cfg as never });
    expect((planned as Record<string, unknown>).label).toBe("mine");
  });

  test("changing a requiresReplace attribute returns its path", () => {
    const old = prior();
    const cfg = config({ name: "b" });
    const { requiresReplace: replace } = planResourceChange(schema, {
      prior: old as never,
      proposed: proposed(cfg, old) as never,
      config: cfg as never,
    });
    expect(replace).toEqual([[{ attribute: "name" }]]);
  });

  test("requiresReplace inside a list block points at the element's attribute", () => {
    const old = prior({ rule: [{ port: 80, protocol: "tcp", rule_id: "r1" }] });
    const cfg = config({ rule: [{ port: 81, protocol: null, rule_id: null }] });
    const prop = { ...proposed(cfg, old), rule: [{ port: 81, protocol: null, rule_id: "r1" }] };
    const { planned, requiresReplace: replace } = planResourceChange(schema, {
      prior: old as never,
      proposed: prop as never,
      config: cfg as never,
    });
    expect(replace).toEqual([[{ attribute: "rule" }, { index: 0 }, { attribute: "port" }]]);
    expect((planned as any).rule[0]).toEqual({ port: 81, protocol: "tcp", rule_id: "r1" });
  });

  test("requiresReplace inside a set block points at the set (set elements have no index)", () => {
    const old = prior({ tagset: [{ key: "a" }] });
    const cfg = config({ tagset: [{ key: "b" }] });
    const { requiresReplace: replace } = planResourceChange(schema, {
      prior: old as never,
      proposed: proposed(cfg, old) as never,
      config: cfg as never,
    });
    expect(replace).toEqual([[{ attribute: "tagset" }]]);
  });

  test("an unknown configured value plans unknown and forces replacement of a requiresReplace attribute", () => {
    const old = prior();
    const cfg = config({ name: Unknown });
    const { planned, requiresReplace: replace } = planResourceChange(schema, {
      prior: old as never,
      proposed: proposed(cfg, old) as never,
      config: cfg as never,
    });
    expect(isUnknown((planned as Record<string, unknown>).name)).toBe(true);
    expect(replace).toEqual([[{ attribute: "name" }]]);
  });

  test("refined unknowns from the configuration are planned as they came", () => {
    const refined = new UnknownValue({ notNull: true, stringPrefix: "note-" });
    const old = prior();
    const cfg = config({ note: refined });
    const { planned } = planResourceChange(schema, { prior: old as never, proposed: proposed(cfg, old) as never, config: cfg as never });
    expect((planned as Record<string, unknown>).note).toBe(refined);
  });

  test("an unknown list block (dynamic block over unknown for_each) stays unknown", () => {
    const cfg = config({ rule: Unknown });
    const { planned } = planResourceChange(schema, { prior: null, proposed: proposed(cfg, null) as never, config: cfg as never });
    expect(isUnknown((planned as Record<string, unknown>).rule)).toBe(true);
  });
});

describe("planResourceChange: destroy and modifiers", () => {
  test("destroy plans null", () => {
    expect(planResourceChange(schema, { prior: prior() as never, proposed: null, config: null })).toEqual({
      planned: null,
      requiresReplace: [],
    });
  });

  test("requiresReplaceIf replaces only when its condition holds", () => {
    const shrink = defineSchema({
      description: "t",
      attributes: {
        size: attr.number({
          description: "s",
          required: true,
          planModifiers: [requiresReplaceIf("shrinking replaces", ({ plan, state }) => (plan as number) < (state as number))],
        }),
      },
    });
    const plan = (from: number, to: number) =>
      planResourceChange(shrink, { prior: { size: from }, proposed: { size: to }, config: { size: to } }).requiresReplace;
    expect(plan(5, 3)).toEqual([[{ attribute: "size" }]]);
    expect(plan(3, 5)).toEqual([]);
  });
});
