/**
 * Block numbers at the API and in front of it (issue 42, item 7; docs/api.md "Block numbers"): the service takes hex
 * only and answers a decimal `block_number` with a 400 naming the field, as the hosted service does; the client
 * takes decimal too and sends hex, and `ensureEnvironment` finds the environment it made again from the decimal spec
 * (no false difference). The provider's side is test/provider-block-numbers.test.ts. A real service, real anvil.
 */
import { call, expectErrorBody } from "./helpers/http";
import { environmentsPath, clientFor, startTestService, type TestService } from "./helpers/service";

describe("block numbers", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service?.close();
  });
  const environments = () => environmentsPath(service);

  it("the service API refuses a decimal block_number with a 400 naming the field, and keeps nothing", async () => {
    const result = await call(service, "POST", environments(), {
      headers: { "x-access-key": service.accessKey },
      body: { display_name: "decimal", network_configs: [{ network_id: "1" }, { network_id: "8453", block_number: "19500000" }] },
    });
    expectErrorBody(result, 400, "bad_request");
    expect(JSON.stringify(result.body.error)).toContain('"/network_configs/1/block_number"');
    const client = clientFor(service);
    try {
      expect(await client.listEnvironments()).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it("the client takes a decimal block number and sends hex; ensureEnvironment then sees no difference", async () => {
    const client = clientFor(service);
    try {
      const spec = { display_name: "Decimal fork point", network_configs: [{ network_id: "1", block_number: "4096" }] };
      const created = await client.createEnvironment(spec);
      expect(created.networks[0]!.block_number).toBe("0x1000");
      const again = await client.ensureEnvironment(spec);
      expect({ created: again.created, id: again.environment.id, differences: again.differences }).toEqual({
        created: false,
        id: created.id,
        differences: [],
      });
      await client.deleteEnvironment({ environmentId: created.id });
    } finally {
      await client.close();
    }
  }, 120_000);
});
