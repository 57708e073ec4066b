import fc from "fast-check";
import { isCallFrame } from "./trace-records";

test("a callTracer frame is told from anything else, however deep or hostile", () => {
  const leaf = { type: "CALL", from: "0x01" };
  expect(isCallFrame({ ...leaf, calls: [leaf, { ...leaf, calls: [] }] })).toBe(true);
  for (const bad of [
    null,
    [],
    "CALL",
    { type: "CALL" },
    { from: "0x01" },
    { ...leaf, calls: {} },
    { ...leaf, calls: [{ type: 1, from: "0x" }] },
  ])
    expect(isCallFrame(bad)).toBe(false);
  let deep: Record<string, unknown> = leaf;
  for (let i = 0; i < 2_000; i++) deep = { ...leaf, calls: [deep] };
  expect(isCallFrame(deep)).toBe(false);
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      expect(typeof isCallFrame(value)).toBe("boolean");
    }),
    { numRuns: 300 },
  );
});
