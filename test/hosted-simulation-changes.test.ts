/**
 * The hosted simulation APIs answer what a simulated transaction moved (docs/explorer-and-dashboard.md "Balance and
 * state changes"): the SDK's `simulations/simulate/bundle` gives each transaction's `asset_changes`, `balance_changes`
 * (the fee in the sender's ether) and `state_changes`, on the state the earlier ones left; the project simulation puts
 * them under `transaction.transaction_info`. Through the local service over HTTP, on a network replica (real anvil).
 */
import { startTestService, type TestService } from "./helpers/service";

jest.setTimeout(120_000);

/** Transfer(address,address,uint256)'s topic. */
const TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});

afterAll(async () => {
  await service?.close();
});

test("the hosted simulation API answers asset and balance changes, the fee in the sender's ether", async () => {
  const from = "0x0000000000000000000000000000000000000f01";
  const to = "0x0000000000000000000000000000000000000f02";
  const answer = await fetch(`${service.baseUrl}/api/v2/account/acme/project/demo/simulations/simulate/bundle`, {
    method: "POST",
    headers: { ...service.headersOf("alice"), "content-type": "application/json" },
    body: JSON.stringify({
      network_id: "1",
      call_args: [
        { from, to, value: "1000", gas: 30000, gas_price: "10000000000" },
        { from: to, to: from, value: "400", gas: 30000, gas_price: "0" },
      ],
      overrides: { [from]: { balance: "0xde0b6b3a7640000" } },
    }),
  });
  expect(answer.status).toBe(200);
  const { simulations } = (await answer.json()) as {
    simulations: {
      gas_used: number;
      asset_changes: { type: string; raw_amount: string }[];
      balance_changes: { address: string; assets: { raw_amount: string }[] }[];
    }[];
  };
  const [first, second] = simulations;
  expect(first!.asset_changes).toMatchObject([{ type: "Transfer", from, to, raw_amount: "0x3e8", amount: "0.000000000000001" }]);
  expect(first!.balance_changes).toEqual([
    {
      address: from,
      transfers: [0],
      assets: [expect.objectContaining({ asset: "native", raw_amount: String(-1000 - first!.gas_used * 10_000_000_000) })],
    },
    { address: to, transfers: [0], assets: [expect.objectContaining({ asset: "native", raw_amount: "1000" })] },
  ]);
  expect((first as unknown as { state_changes: { address: string; field: string }[] }).state_changes).toContainEqual(
    expect.objectContaining({ address: to, field: "balance", previous: "0x0", next: "0x3e8" }),
  );
  // The second runs on the state the first left: `to` holds the 1000 it sends 400 of.
  expect(second!.balance_changes.map((c) => c.assets[0]!.raw_amount)).toEqual(["-400", "400"]);
  // The project simulation answers them where the hosted docs put them: under `transaction.transaction_info`.
  const project = await fetch(`${service.baseUrl}/v1/account/acme/project/demo/simulate`, {
    method: "POST",
    headers: { ...service.headersOf("alice"), "content-type": "application/json" },
    // A creation whose code emits one ERC-20 Transfer of 1000 from `from` to `to` (LOG3), on a replica that funds nobody.
    body: JSON.stringify({
      network_id: "1",
      from,
      input: `0x6103e8600052${`73${to.slice(2)}73${from.slice(2)}7f${TRANSFER_TOPIC.slice(2)}`}60206000a300`,
      gas: 100000,
      gas_price: "0",
    }),
  });
  const simulated = (await project.json()) as { transaction: { transaction_info: Record<string, unknown> } };
  expect([project.status, simulated.transaction.transaction_info.asset_changes]).toEqual([
    200,
    [expect.objectContaining({ type: "Transfer", from, to, raw_amount: "0x3e8" })],
  ]);
});
