import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Loads trace.ts afresh with CHAINFORM_PROVIDER_TRACE set to `file` (it reads the variable once, at load). */
function loadTrace(file: string | undefined): typeof import("./trace") {
  const saved = process.env.CHAINFORM_PROVIDER_TRACE;
  if (file === undefined) delete process.env.CHAINFORM_PROVIDER_TRACE;
  else process.env.CHAINFORM_PROVIDER_TRACE = file;
  try {
    let loaded: typeof import("./trace") | undefined;
    jest.isolateModules(() => {
      loaded = require("./trace") as typeof import("./trace");
    });
    return loaded!;
  } finally {
    if (saved === undefined) delete process.env.CHAINFORM_PROVIDER_TRACE;
    else process.env.CHAINFORM_PROVIDER_TRACE = saved;
  }
}

describe("provider trace", () => {
  const dir = mkdtempSync(join(tmpdir(), "chainform-trace-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("appends one JSON line per event with times, CPU and peak RSS", () => {
    // GIVEN tracing to a file
    const file = join(dir, "trace.jsonl");
    const { trace, tracing } = loadTrace(file);
    expect(tracing).toBe(true);
    // WHEN two events are traced
    trace("handshake");
    trace("rpc", { rpc: "PlanResourceChange", ms: 1.23456 });
    // THEN the file holds them in order, with the process's figures
    const lines = readFileSync(file, "utf8").trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ pid: process.pid, event: "handshake" });
    expect(lines[1]).toMatchObject({ pid: process.pid, event: "rpc", rpc: "PlanResourceChange", ms: 1.23 });
    for (const line of lines) {
      expect(line.at).toBeGreaterThan(0);
      expect(line.cpu).toBeGreaterThan(0);
      expect(line.maxRssKb).toBeGreaterThan(0);
    }
  });

  it("is off when the variable is not set", () => {
    expect(loadTrace(undefined).tracing).toBe(false);
  });

  it("never fails the provider when the file cannot be written", () => {
    const { trace } = loadTrace(join(dir, "missing-dir", "trace.jsonl"));
    expect(() => trace("rpc", { rpc: "ReadResource", ms: 1 })).not.toThrow();
  });
});
