/** ChainPool's idle stop, with jest's fake clock: no real time, so load cannot change the outcome. */
import type { ChainNode } from "../node/backend";
import { ChainBudget, ChainPool } from ".";
import { ChainRequestError } from "../types";

function fakeNode(): ChainNode & { stops: number } {
  const node = {
    rpc: { onTimeout: null } as unknown as ChainNode["rpc"],
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

describe("ChainPool.tryUse (the RPC URLs' pass-through calls, without a promise)", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test("null for a node not started: the caller takes use(), which starts it", async () => {
    const node = fakeNode();
    const pool = new ChainPool({ launch: async () => node, idleTimeoutMs: 1_000 });
    expect(pool.tryUse("a", "shared")).toBeNull();
    await pool.use("a", "shared", async () => undefined);
    const use = pool.tryUse("a", "shared");
    expect(use?.node).toBe(node);
    use!.finish();
    await pool.close();
  });

  test("shares the lock with readers, and is null while a writer holds it or waits for it", async () => {
    const pool = new ChainPool({ launch: async () => fakeNode(), idleTimeoutMs: 0 });
    await pool.use("a", "shared", async () => undefined);
    const first = pool.tryUse("a", "shared")!;
    const second = pool.tryUse("a", "shared")!;
    expect(second).not.toBeNull();
    // A writer waits for both readers; a reader arriving after it waits too (the lock is fair).
    let wrote = false;
    const write = pool.use("a", "exclusive", async () => {
      wrote = true;
    });
    expect(pool.tryUse("a", "shared")).toBeNull();
    first.finish();
    first.finish(); // a second finish releases nothing more
    await jest.advanceTimersByTimeAsync(0);
    expect(wrote).toBe(false);
    second.finish();
    await write;
    expect(wrote).toBe(true);
    const after = pool.tryUse("a", "shared");
    expect(after).not.toBeNull();
    after!.finish();
    await pool.close();
  });

  test("finishing arms the idle stop, as use() does: the node stops once idle for the timeout", async () => {
    const node = fakeNode();
    const pool = new ChainPool({ launch: async () => node, idleTimeoutMs: 1_000 });
    await pool.use("a", "shared", async () => undefined);
    await jest.advanceTimersByTimeAsync(900);
    const use = pool.tryUse("a", "shared")!;
    await jest.advanceTimersByTimeAsync(900); // the first timer fires while in use: not idle
    use.finish();
    expect(node.stops).toBe(0);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(node.stops).toBe(1);
    expect(pool.tryUse("a", "shared")).toBeNull();
    await pool.close();
  });

  test("null once the pool is closed", async () => {
    const pool = new ChainPool({ launch: async () => fakeNode(), idleTimeoutMs: 0 });
    await pool.use("a", "shared", async () => undefined);
    await pool.close();
    expect(pool.tryUse("a", "shared")).toBeNull();
  });
});

describe("ChainPool under a ChainBudget", () => {
  function countingLaunch(started: string[]) {
    const nodes = new Map<string, ReturnType<typeof fakeNode>>();
    return {
      nodes,
      launch: async (key: string) => {
        started.push(key);
        const node = fakeNode();
        nodes.set(key, node);
        return node;
      },
    };
  }

  test("a start beyond the cap stops the idlest node first (across pools), keeping the others", async () => {
    const budget = new ChainBudget(2);
    const started: string[] = [];
    const vnets = countingLaunch(started);
    const replicas = countingLaunch(started);
    const pool = new ChainPool({ launch: vnets.launch, idleTimeoutMs: 0, budget });
    const replicaPool = new ChainPool({ launch: replicas.launch, idleTimeoutMs: 0, budget });
    await pool.use("a", "shared", async () => undefined);
    await replicaPool.use("r", "shared", async () => undefined);
    await pool.use("a", "shared", async () => undefined); // "r" is now the idlest
    await pool.use("b", "shared", async () => undefined);
    expect(replicas.nodes.get("r")!.stops).toBe(1);
    expect(replicaPool.running("r")).toBeNull();
    expect(pool.running("a")).not.toBeNull();
    expect(pool.running("b")).not.toBeNull();
    expect(budget.occupied).toBe(2);
    // the stopped one starts again on its next use, stopping the idlest of the others ("a")
    await replicaPool.use("r", "shared", async () => undefined);
    expect(vnets.nodes.get("a")!.stops).toBe(1);
    expect(budget.occupied).toBe(2);
    await Promise.all([pool.close(), replicaPool.close()]);
  });

  test("when every running node is busy (in use or kept running) a start is refused with a 503, and nothing is stopped", async () => {
    const budget = new ChainBudget(2);
    const { launch, nodes } = countingLaunch([]);
    const pool = new ChainPool({ launch, idleTimeoutMs: 0, budget, keepRunning: (key) => key === "snap" });
    let finish!: () => void;
    const busy = pool.use("busy", "shared", () => new Promise<void>((resolve) => (finish = resolve)));
    await pool.use("snap", "shared", async () => undefined);
    const refused = await pool.use("d", "shared", async () => "ran").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ChainRequestError);
    expect(refused).toMatchObject({ status: 503, message: expect.stringMatching(/all 2 chains .* are busy.*--max-chains/) });
    expect([...nodes.values()].map((n) => n.stops)).toEqual([0, 0]);
    expect(pool.running("d")).toBeNull();
    // once one is free again, the start goes through by stopping it
    finish();
    await busy;
    expect(await pool.use("d", "shared", async () => "ran")).toBe("ran");
    expect(nodes.get("busy")!.stops).toBe(1);
    await pool.close();
  });

  test("a node held only by subscriptions is stopped to make room, after every idle unpinned node", async () => {
    const budget = new ChainBudget(2);
    const vnets = countingLaunch([]);
    const replicas = countingLaunch([]);
    const pool = new ChainPool({ launch: vnets.launch, idleTimeoutMs: 0, budget });
    const replicaPool = new ChainPool({ launch: replicas.launch, idleTimeoutMs: 0, budget });
    await pool.pin("pinned", () => undefined); // used first: the idlest by time
    await replicaPool.use("r", "shared", async () => undefined);
    await pool.use("c", "shared", async () => undefined);
    // the unpinned one goes first, although the pinned one was used longer ago
    expect(replicas.nodes.get("r")!.stops).toBe(1);
    expect(vnets.nodes.get("pinned")!.stops).toBe(0);
    // with only the pinned one left idle beside "c" (in use), it goes
    let finish!: () => void;
    const busy = pool.use("c", "shared", () => new Promise<void>((resolve) => (finish = resolve)));
    expect(await pool.use("d", "shared", async () => "ran")).toBe("ran");
    expect(vnets.nodes.get("pinned")!.stops).toBe(1);
    finish();
    await busy;
    await Promise.all([pool.close(), replicaPool.close()]);
  });

  test("concurrent starts beyond the cap stop just enough nodes", async () => {
    const budget = new ChainBudget(2);
    const { launch, nodes } = countingLaunch([]);
    const pool = new ChainPool({ launch, idleTimeoutMs: 0, budget });
    await pool.use("a", "shared", async () => undefined);
    await pool.use("b", "shared", async () => undefined);
    await Promise.all([pool.use("c", "shared", async () => undefined), pool.use("d", "shared", async () => undefined)]);
    expect(nodes.get("a")!.stops + nodes.get("b")!.stops).toBe(2);
    expect(budget.occupied).toBe(2);
    await pool.close();
  });
});
