import { describeSelector, selectForTeardown } from "./teardown-selection";

const now = Date.parse("2026-11-21T12:00:00Z");
const env = (slug: string, created_at: string) => ({ id: `id-${slug}`, slug, display_name: slug, created_at });
const envs = [
  env("pr-42-a", "2026-11-21T11:30:00Z"),
  env("pr-42-b", "2026-11-21T08:00:00Z"),
  env("pr-420", "2026-11-20T12:00:00Z"),
  env("main", "2026-11-21T11:59:00Z"),
];

describe("selectForTeardown", () => {
  it("selects by slug prefix", () => {
    expect(selectForTeardown(envs, { kind: "prefix", prefix: "pr-42-" }, now).map((e) => e.slug)).toEqual(["pr-42-a", "pr-42-b"]);
  });

  it("selects environments strictly older than the age", () => {
    const twoHours = 2 * 3_600_000;
    expect(selectForTeardown(envs, { kind: "olderThan", ms: twoHours }, now).map((e) => e.slug)).toEqual(["pr-42-b", "pr-420"]);
  });

  it("selects everything with all", () => {
    expect(selectForTeardown(envs, { kind: "all" }, now)).toHaveLength(4);
  });

  it("selects nothing when nothing matches", () => {
    expect(selectForTeardown(envs, { kind: "prefix", prefix: "nope" }, now)).toEqual([]);
  });
});

describe("describeSelector", () => {
  it("says what will go", () => {
    expect(describeSelector({ kind: "prefix", prefix: "pr-" })).toBe('environments whose slug starts with "pr-"');
    expect(describeSelector({ kind: "olderThan", ms: 7_200_000 })).toBe("environments created more than 2h ago");
    // `--older-than 1s` once read "more than 0 min ago" (issue 42, item 8)
    expect(describeSelector({ kind: "olderThan", ms: 1_000 })).toBe("environments created more than 1s ago");
    expect(describeSelector({ kind: "olderThan", ms: 5_430_000 })).toBe("environments created more than 1h30m30s ago");
    expect(describeSelector({ kind: "all" })).toBe("every environment of the project");
  });
});
