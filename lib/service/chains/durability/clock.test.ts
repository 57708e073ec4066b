import fc from "fast-check";
import { clockOfState, stateWithClock, type ChainClock } from "./clock";

const STATE = Buffer.from('{"block":{"number":"0x2"},"accounts":{}}');

test("a clock added to a state is read back, and the state stays the JSON object it was plus the member", () => {
  const clock: ChainClock = { offset: 86_400, interval: 12, nextTimestamp: 1_900_000_000 };
  const carried = stateWithClock(STATE, clock);
  expect(clockOfState(carried)).toEqual(clock);
  const { chainform_clock: member, ...rest } = JSON.parse(carried.toString()) as Record<string, unknown>;
  expect(member).toEqual(clock);
  expect(rest).toEqual(JSON.parse(STATE.toString()));
});

test("an empty object takes the member without a comma; no clock leaves the state as it is", () => {
  expect(JSON.parse(stateWithClock(Buffer.from("{ }"), { offset: -3, interval: null, nextTimestamp: null }).toString())).toEqual({
    chainform_clock: { offset: -3, interval: null, nextTimestamp: null },
  });
  expect(stateWithClock(STATE, undefined)).toBe(STATE);
  expect(clockOfState(STATE)).toBeUndefined();
});

test("a malformed clock member in an imported state is ignored, never thrown", () => {
  for (const member of [
    '{"offset":"x","interval":null,"nextTimestamp":null}',
    '{"offset":1.5,"interval":null,"nextTimestamp":null}',
    '{"offset":1,"interval":-1,"nextTimestamp":null}',
  ])
    expect(clockOfState(Buffer.from(`{"accounts":{},"chainform_clock":${member}}`))).toBeUndefined();
  fc.assert(
    fc.property(fc.string({ maxLength: 200 }), (tail) => {
      const result = clockOfState(Buffer.from(`{"chainform_clock":{${tail}}`));
      if (result !== undefined) expect(Number.isSafeInteger(result.offset)).toBe(true);
    }),
    { numRuns: 300 },
  );
});
