import fc from "fast-check";
import { CLAIM_FRESH_MS, claimTag, earliestClaim, parseClaimTag } from "./claims";
import { parseTag } from "./recordings";

const NOW = 1_800_000_000_000;

describe("claim tags", () => {
  test("a claim's tag reads back as the claim, and is never a recordings tag", () => {
    const claim = { at: NOW, by: "0123456789abcdef" };
    const tag = claimTag("suite", "1", "17", claim);
    expect(tag).toBe(`suite.1.17.claim-${NOW}-0123456789abcdef`);
    expect(tag.length).toBeLessThanOrEqual(128);
    expect(parseClaimTag("suite", "1", "17", tag)).toEqual(claim);
    expect(parseTag("suite", tag)).toBeNull();
  });

  test.each([
    ["another block", "suite.1.18.claim-1800000000000-ab"],
    ["another network", "suite.8453.17.claim-1800000000000-ab"],
    ["another prefix", "fork.1.17.claim-1800000000000-ab"],
    ["a recordings tag", "suite.1.17.0123456789abcdef"],
    ["no id", "suite.1.17.claim-1800000000000-"],
    ["no time", "suite.1.17.claim--ab"],
    ["an upper-case id", "suite.1.17.claim-1800000000000-AB"],
  ])("%s is no claim on network 1 at block 17", (_, tag) => {
    expect(parseClaimTag("suite", "1", "17", tag)).toBeNull();
    expect(earliestClaim("suite", "1", "17", [tag], NOW)).toBeNull();
  });

  test("the earliest fresh claim wins; a stale one is a job that died; one from the future counts as made now", () => {
    const tag = (at: number, by: string) => claimTag("suite", "1", "17", { at, by });
    const stale = tag(NOW - CLAIM_FRESH_MS, "aa");
    const early = tag(NOW - 500, "bb");
    const late = tag(NOW - 100, "cc");
    expect(earliestClaim("suite", "1", "17", [late, stale, early], NOW)).toEqual({ at: NOW - 500, by: "bb" });
    expect(earliestClaim("suite", "1", "17", [stale], NOW)).toBeNull();
    expect(earliestClaim("suite", "1", "17", [tag(NOW + 3_600_000, "dd"), late], NOW)).toEqual({ at: NOW - 100, by: "cc" });
    expect(earliestClaim("suite", "1", "17", [tag(NOW + 3_600_000, "dd")], NOW)).toEqual({ at: NOW, by: "dd" });
  });

  test("every job that lists the same claims picks the same one, whatever their order (property)", () => {
    const claim = fc.record({
      at: fc.integer({ min: NOW - CLAIM_FRESH_MS + 1, max: NOW }),
      by: fc.stringMatching(/^[a-f0-9]{16}$/),
    });
    fc.assert(
      fc.property(
        fc.array(claim, { minLength: 1, maxLength: 12 }),
        fc.array(fc.string({ maxLength: 40 }), { maxLength: 5 }),
        (claims, noise) => {
          const tags = [...claims.map((c) => claimTag("suite", "1", "17", c)), ...noise];
          const picked = earliestClaim("suite", "1", "17", tags, NOW);
          const reversed = earliestClaim("suite", "1", "17", [...tags].reverse(), NOW);
          expect(picked).toEqual(reversed);
          const least = Math.min(...claims.map((c) => c.at));
          expect(picked!.at).toBe(least);
          expect(claims.some((c) => c.at === picked!.at && c.by === picked!.by)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});
