import { CompilerBusy, CompileTimedOut, SolcWorker } from "./compiler";

jest.setTimeout(120_000);

/** A contract the model checker can spend as long as it likes on (with `timeout: 0`). */
const HARD = `pragma solidity ^0.8.0;
contract C {
  uint x;
  function f(uint a, uint b) public { for (uint i = 0; i < a; i++) { x += b * i; require(x != 12345); } assert(x < 2**200); }
  function g(uint a) public view returns (uint) { uint r = 1; while (a > 0) { r *= a; a--; } assert(r > x); return r; }
}`;
const EASY = "pragma solidity ^0.8.0;\ncontract D { function one() external pure returns (uint) { return 1; } }";

function input(content: string, settings: Record<string, unknown> = {}): string {
  return JSON.stringify({
    language: "Solidity",
    sources: { "c.sol": { content } },
    settings: { ...settings, outputSelection: { "*": { "*": ["abi"] } } },
  });
}

test("a model-checker compile is stopped at the time limit; the compiler then serves the next one", async () => {
  const worker = new SolcWorker();
  try {
    const modelChecked = worker.compile(
      input(HARD, { modelChecker: { engine: "all", timeout: 0, targets: ["assert", "overflow", "underflow"] } }),
      2_000,
    );
    const queued = worker.compile(input(EASY)); // waits behind it, then runs on a fresh worker, with the default limit
    await expect(modelChecked).rejects.toThrow(CompileTimedOut);
    await expect(modelChecked).rejects.toThrow("took longer than 2 s");
    const output = JSON.parse(await queued) as { contracts?: Record<string, Record<string, unknown>> };
    expect(Object.keys(output.contracts?.["c.sol"] ?? {})).toEqual(["D"]);
  } finally {
    await worker.close();
  }
});

test("past the most pending compiles, a submission is refused at once instead of waiting", async () => {
  const worker = new SolcWorker(undefined, 2);
  try {
    const slow = worker.compile(input(HARD, { modelChecker: { engine: "all", timeout: 0, targets: ["assert"] } }), 2_000);
    const waiting = worker.compile(input(EASY));
    await expect(worker.compile(input(EASY))).rejects.toThrow(CompilerBusy);
    await expect(slow).rejects.toThrow(CompileTimedOut);
    await expect(waiting).resolves.toContain('"D"');
  } finally {
    await worker.close();
  }
});
