import { durationText, formatDuration, parseDuration } from "./duration";

describe("parseDuration", () => {
  it.each([
    ["90s", 90_000],
    ["30m", 1_800_000],
    ["2h", 7_200_000],
    ["1d", 86_400_000],
    ["1w", 604_800_000],
    ["1h30m", 5_400_000],
    [" 2h ", 7_200_000],
  ])("reads %s", (text, ms) => expect(parseDuration(text)).toBe(ms));

  it.each(["", "2", "h", "2 h", "-2h", "2.5h", "2y", "0m"])("rejects %j with the accepted forms", (text) => {
    expect(() => parseDuration(text)).toThrow(/duration|zero/);
  });
});

describe("formatDuration", () => {
  it.each([
    [850, "850 ms"],
    [4_200, "4.2 s"],
    [185_000, "3 min 5 s"],
  ])("formats %d ms as %s", (ms, text) => expect(formatDuration(ms)).toBe(text));
});

test("durationText writes what parseDuration reads", () => {
  for (const text of ["1s", "90s", "30m", "2h", "1d", "1h30m", "1w2d3h4m5s"]) {
    expect(parseDuration(durationText(parseDuration(text)))).toBe(parseDuration(text));
  }
  expect(durationText(90_000)).toBe("1m30s");
  expect(durationText(400)).toBe("0s");
});
