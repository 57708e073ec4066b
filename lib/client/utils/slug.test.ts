import { slugify, uniqueSlug } from "./slug";

describe("slugify", () => {
  it.each([
    ["My Env #2", "my-env-2"],
    ["  --Crème brûlée--  ", "creme-brulee"],
    ["CI/main (nightly)", "ci-main-nightly"],
    ["日本", "environment"],
  ])("%s → %s", (name, slug) => expect(slugify(name)).toBe(slug));
  it("keeps within 100 characters and ends on a letter or digit", () => {
    const slug = slugify(`${"a".repeat(99)} b`);
    expect(slug.length).toBeLessThanOrEqual(100);
    expect(slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });
});

describe("uniqueSlug", () => {
  it("adds a 6-character suffix from the random source", () => {
    expect(uniqueSlug("CI run", () => Buffer.from([0, 1, 2, 25, 26, 35]))).toBe("ci-run-abcz09");
  });
  it("differs between calls and stays a valid slug of at most 100 characters", () => {
    const a = uniqueSlug("x".repeat(200));
    const b = uniqueSlug("x".repeat(200));
    expect(a).not.toBe(b);
    expect(a.length).toBeLessThanOrEqual(100);
    expect(a).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });
});
