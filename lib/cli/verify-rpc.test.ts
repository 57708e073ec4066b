import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { CliError } from "./errors";
import { EXIT_INTERRUPTED } from "./interrupts";
import { verifyNetworks } from "./verify-rpc";
import type { DeployedNetwork } from "./stack-state";

/**
 * Ctrl-C during the RPC checks (issue 42, item 9): `deploy` waited out the 60 s deadline of a Public RPC that never
 * answers. Now the interruption stops the calls at once. A real loopback server that takes requests and never answers.
 */
describe("verifyNetworks and Ctrl-C", () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer(() => {
      // never answers
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rpc/public/x`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("an abort stops a hanging Public RPC call and the checks end as interrupted (exit 130)", async () => {
    const network: DeployedNetwork = {
      stack: "s",
      environment: "e",
      environmentId: "",
      networkId: "1",
      chainId: 1,
      publicRpcUrl: url,
      adminRpcUrl: "",
      accounts: [],
      forkBlock: null,
    };
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 200);
    const started = performance.now();
    const checked = verifyNetworks([network], { timeoutMs: 600_000, signal: stop.signal });
    await expect(checked).rejects.toThrow(CliError);
    await expect(checked).rejects.toMatchObject({ message: "interrupted", exitCode: EXIT_INTERRUPTED });
    // Far below the call's own deadline (10 minutes): the abort ended it, not the clock.
    expect(performance.now() - started).toBeLessThan(60_000);
  });
});
