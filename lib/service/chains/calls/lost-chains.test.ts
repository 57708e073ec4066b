import fc from "fast-check";
import { ChainTimeoutError } from "../wire/chain-timeout";
import { ChainLostError, connectionReason, untilAnswered } from "./lost-chains";
import { chainDidNotAnswer } from "./rpc-proxy";
import { ChainRequestError } from "../types";

test("a failed connection is named by its code, never by the server's socket path or port", () => {
  const refused = Object.assign(new Error("connect ECONNREFUSED /tmp/chainform-anvil-123-4.ipc"), { code: "ECONNREFUSED" });
  expect(chainDidNotAnswer(refused)).toBe("the chain did not answer: its connection failed: ECONNREFUSED");
  const codeless = new Error("connect failed at /tmp/x/chainform-anvil-1-2.ipc via 127.0.0.1:4545");
  expect(chainDidNotAnswer(codeless)).not.toMatch(/\/tmp|chainform-anvil|4545/);
  expect(chainDidNotAnswer(new ChainTimeoutError(3000))).toMatch(/RPC timeout of 3 s/);
  fc.assert(
    fc.property(fc.stringMatching(/^[a-z0-9/._-]{1,40}$/), (path) => {
      expect(connectionReason(new Error(`read ECONNRESET /tmp/${path}`))).not.toContain(`/tmp/${path}`);
    }),
    { numRuns: 200 },
  );
});

test("a lost chain's work runs again until answered; other errors and a chain that never comes back are not chased", async () => {
  let runs = 0;
  await expect(
    untilAnswered(60_000, async () => {
      runs += 1;
      if (runs < 3) throw new ChainLostError("killed");
      return "answered";
    }),
  ).resolves.toBe("answered");
  expect(runs).toBe(3);
  const refused = new ChainRequestError(400, "bad");
  await expect(untilAnswered(60_000, () => Promise.reject(refused))).rejects.toBe(refused);
  const never = untilAnswered(60_000, () => Promise.reject(new ChainLostError("killed")));
  await expect(never).rejects.toMatchObject({ status: 503, message: expect.stringMatching(/did not come back in time/) });
});
