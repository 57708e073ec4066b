import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { summarizeTrace } from "./trace-summary";

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
    const lines = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
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

describe("summarizeTrace", () => {
  it("sums start-up, load, RPC time (overlaps once), shutdown and CPU per process, and keeps the peak RSS", () => {
    const event = (pid: number, event: string, at: number, more: Record<string, unknown> = {}) =>
      ({ pid, event, at, cpu: at / 2, maxRssKb: 50 * 1024 + at, ...more }) as never;
    const summary = summarizeTrace([
      event(1, "handshake", 60),
      event(1, "load", 80, { ms: 10 }),
      event(1, "rpc", 85, { rpc: "GetProviderSchema", ms: 15 }),
      event(1, "shutdown", 90),
      event(1, "exit", 92),
      event(2, "handshake", 50),
      event(2, "rpc", 110, { rpc: "PlanResourceChange", ms: 40 }), // 70-110
      event(2, "rpc", 120, { rpc: "PlanResourceChange", ms: 30 }), // 90-120: overlaps the first
      event(2, "rpc", 200, { rpc: "PlanResourceChange", ms: 10 }), // 190-200
      event(2, "shutdown", 210),
      event(2, "exit", 215),
    ]);
    expect(summary).toEqual({
      processes: 2,
      startupMs: 110,
      loadMs: 10,
      rpcBusyMs: 15 + 50 + 10,
      shutdownToExitMs: 7,
      cpuMs: 46 + 107.5,
      peakRssMb: 50.21,
      rpcs: {
        GetProviderSchema: { calls: 1, totalMs: 15, maxMs: 15 },
        PlanResourceChange: { calls: 3, totalMs: 80, maxMs: 40 },
      },
    });
  });
});
