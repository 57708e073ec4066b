/** ChainPool's idle stop, with jest's fake clock: no real time, so load cannot change the outcome. */
import type { ChainNode } from "./backend";
import { ChainPool } from "./chain-pool";

function fakeNode(): ChainNode & { stops: number } {
  const node = {
    rpc: undefined as unknown as ChainNode["rpc"],
    pids: [],
    exited: new Promise<void>(() => {}),
    stops: 0,
    async stop() {
      node.stops += 1;
    },
    async kill() {},
  };
  return node;
}

describe("ChainPool idle stop", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test("a timer that fires before the node has been idle long enough is armed again, and the node then stops", async () => {
    // GIVEN a pool with a 1000 ms idle timeout and one used node
    const node = fakeNode();
    const pool = new ChainPool({ launch: async () => node, idleTimeoutMs: 1_000 });
    await pool.use("a", "shared", async () => undefined);
    // WHEN the clock steps back (the timer then fires "early" by the wall clock) and the timer fires
    jest.setSystemTime(Date.now() - 300);
    await jest.advanceTimersByTimeAsync(1_000);
    // THEN it is not stopped yet, but it is once the rest of the idle time has passed
    expect(node.stops).toBe(0);
    expect(pool.running("a")).toBe(node);
    await jest.advanceTimersByTimeAsync(300);
    expect(node.stops).toBe(1);
    expect(pool.running("a")).toBeNull();
    await pool.close();
  });

  test("a node in use when its timer fires stops after the use ends, not before", async () => {
    const node = fakeNode();
    const pool = new ChainPool({ launch: async () => node, idleTimeoutMs: 1_000 });
    await pool.use("a", "shared", async () => undefined);
    let finish!: () => void;
    const busy = pool.use("a", "shared", () => new Promise<void>((resolve) => (finish = resolve)));
    await jest.advanceTimersByTimeAsync(1_500);
    expect(node.stops).toBe(0);
    finish();
    await busy;
    await jest.advanceTimersByTimeAsync(1_000);
    expect(node.stops).toBe(1);
    await pool.close();
  });
});
