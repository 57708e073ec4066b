import fc from "fast-check";
import { toEventSelector } from "../service/chains/evm/viem";
import { assetChanges, assetMovements, TOKEN_TOPICS, ZERO_ADDRESS, type FrameLog, type ValueFrame } from "./asset-changes";

const A = "0x00000000000000000000000000000000000000aa";
const B = "0x00000000000000000000000000000000000000bb";
const C = "0x00000000000000000000000000000000000000cc";
const TOKEN = "0x00000000000000000000000000000000000000dd";
const topicOf = (address: string) => `0x${address.slice(2).padStart(64, "0")}`;
const word = (n: bigint) => `0x${n.toString(16).padStart(64, "0")}`;
const transfer = (from: string, to: string, amount: bigint, position?: number): FrameLog => ({
  address: TOKEN,
  topics: [TOKEN_TOPICS.transfer, topicOf(from), topicOf(to)],
  data: word(amount),
  ...(position !== undefined ? { position: `0x${position.toString(16)}` } : {}),
});
const META = new Map([[TOKEN, { name: "Test Token", symbol: "TT", decimals: 6 }]]);

describe("asset changes from a call tree", () => {
  test("the topics are those of the events' signatures", () => {
    expect(TOKEN_TOPICS.transfer).toBe(toEventSelector("Transfer(address,address,uint256)"));
    expect(TOKEN_TOPICS.transferSingle).toBe(toEventSelector("TransferSingle(address,address,address,uint256,uint256)"));
    expect(TOKEN_TOPICS.deposit).toBe(toEventSelector("Deposit(address,uint256)"));
    expect(TOKEN_TOPICS.withdrawal).toBe(toEventSelector("Withdrawal(address,uint256)"));
  });

  test("ether of inner calls counts, a reverted frame's and a delegate call's do not, logs sit between calls", () => {
    const root: ValueFrame = {
      type: "CALL",
      from: A,
      to: B,
      value: "0x10",
      logs: [transfer(A, B, 7n, 0), transfer(B, A, 5n, 1)],
      calls: [
        { type: "CALL", from: B, to: C, value: "0x3" },
        { type: "CALL", from: B, to: C, value: "0x4", error: "execution reverted", logs: [transfer(B, C, 99n)] },
        { type: "DELEGATECALL", from: B, to: C, value: "0x10" },
      ],
    };
    const moved = assetMovements(root);
    expect(moved.map((m) => [m.token, m.from, m.to, m.amount])).toEqual([
      [null, A, B, 16n],
      [TOKEN, A, B, 7n],
      [null, B, C, 3n],
      [TOKEN, B, A, 5n],
    ]);
    const changes = assetChanges(root, A, 100n, META);
    expect(changes.asset_changes[1]).toMatchObject({
      amount: "0.000007",
      raw_amount: "0x7",
      type: "Transfer",
      token_info: { symbol: "TT" },
    });
    const of = (address: string) => changes.balance_changes.find((c) => c.address === address)!;
    expect(of(A).assets).toEqual([
      { asset: "native", symbol: "ETH", decimals: 18, raw_amount: "-116", amount: "-0.000000000000000116" },
      { asset: TOKEN, symbol: "TT", decimals: 6, raw_amount: "-2", amount: "-0.000002" },
    ]);
    expect(of(C).transfers).toEqual([2]);
  });

  test("WETH's Deposit is a mint and Withdrawal a burn; an ERC-721 moves one id", () => {
    const root: ValueFrame = {
      type: "CALL",
      from: A,
      to: TOKEN,
      logs: [
        { address: TOKEN, topics: [TOKEN_TOPICS.deposit, topicOf(A)], data: word(9n) },
        { address: TOKEN, topics: [TOKEN_TOPICS.withdrawal, topicOf(A)], data: word(4n) },
        { address: C, topics: [TOKEN_TOPICS.transfer, topicOf(A), topicOf(B), word(42n)], data: "0x" },
      ],
    };
    const changes = assetChanges(root, A, 0n, META);
    expect(changes.asset_changes.map((c) => [c.type, c.token_info.standard, c.token_id])).toEqual([
      ["Mint", "ERC20", undefined],
      ["Burn", "ERC20", undefined],
      ["Transfer", "ERC721", "42"],
    ]);
    expect(changes.balance_changes.find((c) => c.address === A)!.assets.map((a) => [a.asset, a.raw_amount])).toEqual([
      [TOKEN, "5"],
      [`${C}#42`, "-1"],
    ]);
    expect(changes.balance_changes.some((c) => c.address === ZERO_ADDRESS)).toBe(false);
  });

  test("a log of a known topic but a bad shape moves nothing", () => {
    const bad = (topics: string[], data: string) =>
      assetMovements({ type: "CALL", from: A, to: TOKEN, logs: [{ address: TOKEN, topics, data }] });
    expect(bad([TOKEN_TOPICS.transfer, topicOf(A), topicOf(B), "0x"], "0x")).toEqual([]);
    expect(bad([TOKEN_TOPICS.transfer, "0x12", topicOf(B)], word(1n))).toEqual([]);
    expect(bad([TOKEN_TOPICS.transfer, topicOf(A), topicOf(B)], "0x123")).toEqual([]);
    expect(bad([TOKEN_TOPICS.deposit, topicOf(A)], word(1n) + "00")).toEqual([]);
  });

  test("property: a frame of any shape (a damaged fixture's) never throws", () => {
    const frame = fc.letrec((tie) => ({
      frame: fc.record(
        {
          type: fc.oneof(fc.constantFrom("CALL", "DELEGATECALL"), fc.string()),
          from: fc.oneof(fc.constantFrom(A, B), fc.string()),
          to: fc.anything(),
          value: fc.oneof(fc.constantFrom("0x10", "0x", "xyz", "0x" + "f".repeat(65)), fc.anything()),
          logs: fc.oneof(
            fc.array(fc.oneof(fc.anything(), fc.record({ address: fc.anything(), topics: fc.anything(), data: fc.anything() }))),
            fc.anything(),
          ),
          calls: fc.oneof(fc.array(tie("frame"), { maxLength: 2 }), fc.anything()),
        },
        { requiredKeys: ["type", "from"] },
      ),
    })).frame;
    fc.assert(
      fc.property(frame, (root) => {
        assetChanges(root as ValueFrame, A, 1n, META);
      }),
      { numRuns: 300 },
    );
  });

  test("property: what moves is conserved (less mints and burns), ether less the fee; hostile logs move nothing", () => {
    const party = fc.constantFrom(A, B, C, ZERO_ADDRESS);
    const log = fc.oneof(
      fc
        .record({ from: party, to: party, amount: fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }) })
        .map((t) => transfer(t.from, t.to, t.amount)),
      fc.record({
        address: fc.constant(TOKEN),
        topics: fc.array(fc.oneof(fc.constantFrom(...Object.values(TOKEN_TOPICS)), fc.stringMatching(/^(0x)?[0-9a-fA-F]{0,70}$/)), {
          maxLength: 5,
        }),
        data: fc.stringMatching(/^(0x)?[0-9a-fA-F]{0,140}$/),
      }),
    );
    const frame: fc.Memo<ValueFrame> = fc.memo((depth) =>
      fc.record({
        type: fc.constantFrom("CALL", "DELEGATECALL", "STATICCALL", "CREATE"),
        from: party,
        to: party,
        value: fc.bigInt({ min: 0n, max: 10n ** 20n }).map((v) => `0x${v.toString(16)}`),
        error: fc.option(fc.constant("reverted"), { nil: undefined }),
        logs: fc.array(log, { maxLength: 3 }),
        calls: depth > 1 ? fc.array(frame(depth - 1), { maxLength: 3 }) : fc.constant([]),
      }),
    );
    fc.assert(
      fc.property(frame(3), fc.bigInt({ min: 0n, max: 10n ** 18n }), (root, fee) => {
        const changes = assetChanges(root, A, fee, META);
        const total = new Map<string, bigint>();
        for (const change of changes.balance_changes)
          for (const asset of change.assets) total.set(asset.asset, (total.get(asset.asset) ?? 0n) + BigInt(asset.raw_amount));
        const minted = changes.asset_changes
          .filter((c) => c.token_info.contract_address === TOKEN)
          .reduce(
            (sum, c) => sum + (c.from === ZERO_ADDRESS ? BigInt(c.raw_amount) : 0n) - (c.to === ZERO_ADDRESS ? BigInt(c.raw_amount) : 0n),
            0n,
          );
        const etherToZero = changes.asset_changes
          .filter((c) => c.token_info.standard === "NativeCurrency")
          .reduce(
            (sum, c) => sum + (c.to === ZERO_ADDRESS ? BigInt(c.raw_amount) : 0n) - (c.from === ZERO_ADDRESS ? BigInt(c.raw_amount) : 0n),
            0n,
          );
        expect(total.get(TOKEN) ?? 0n).toBe(minted);
        expect(total.get("native") ?? 0n).toBe(-fee - etherToZero);
      }),
      { numRuns: 200 },
    );
  });
});
