/**
 * The read-heavy shape of `npm run bench -- rpc` (issue 52): a `forge test --fork-url` suite of `READ_TESTS` tests,
 * each reading the balance, code, nonce and one storage slot of `ACCOUNTS_PER_TEST` distinct accounts from a forked
 * chain, as a DeFi fork suite reads a protocol's state. The upstream both sides fork is a local anvil with real
 * transactions (test/helpers/fork-upstream.ts: a token deployed and moved, then one real transfer to an account of
 * every test, which that test checks); "anvil" is a plain anvil forking it at the same block, "Public RPC" a
 * chainform environment forking it (its anvil reads through chainform's recording proxy). forge runs with
 * `--no-storage-caching`: it otherwise keeps what it read on disk per chain and block, whatever the URL, and every run
 * after the first would read its own cache (7 calls instead of about 15,000: `eth_getAccountInfo` and
 * `eth_getStorageAt` per account).
 */
import { createAnvilBackend, type ChainNode } from "../../lib/service/chains";
import { forgeProject, type ForgeProject } from "../../test/helpers/forge";
import { DEPLOYER, startForkUpstream, type ForkUpstream } from "../../test/helpers/fork-upstream";

/** Tests in the suite. */
export const READ_TESTS = 30;
/** Distinct accounts each test reads. */
export const ACCOUNTS_PER_TEST = 250;
/** The first account read: above the precompiles, and each test's accounts apart from the next's. */
const BASE = 0x100000;
/** Wei the upstream sends to account 1 of test `seed`: the test checks the sum of its accounts' balances. */
const funding = (seed: number) => BigInt(seed + 1) * 10n ** 15n;
const accountOf = (seed: number, i: number) => `0x${(BASE + seed * 1000 + i).toString(16).padStart(40, "0")}`;

/** The suite's sources: one test contract, its tests each on accounts of their own; account 0 of each is the token. */
function suiteSources(token: string): Record<string, string> {
  const tests = Array.from(
    { length: READ_TESTS },
    (_, seed) => `    function test_reads_${String(seed).padStart(2, "0")}() public view { readAccounts(${seed}); }`,
  );
  const source = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface Vm {
    function getNonce(address account) external view returns (uint64);
    function load(address target, bytes32 slot) external view returns (bytes32);
}

contract ForkReadsTest {
    Vm constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));
    address constant TOKEN = address(uint160(${BigInt(token).toString()}));

    function readAccounts(uint256 seed) internal view {
        uint256 total;
        uint256 codeBytes;
        uint256 nonces;
        uint256 slots;
        for (uint256 i = 0; i < ${ACCOUNTS_PER_TEST}; i++) {
            address account = i == 0 ? TOKEN : address(uint160(${BASE} + seed * 1000 + i));
            if (i != 0) total += account.balance;
            codeBytes += account.code.length;
            nonces += vm.getNonce(account);
            slots += uint256(vm.load(account, bytes32(i % 4)));
        }
        require(total == (seed + 1) * 1e15, "the funded account's balance");
        require(codeBytes > 0, "the token's code");
        require(slots > 0, "the token's storage");
    }

${tests.join("\n")}
}
`;
  return { "src/.keep.sol": "// SPDX-License-Identifier: MIT\npragma solidity ^0.8.20;\n", "test/ForkReads.t.sol": source };
}

/** The upstream, the plain anvil forking it, and the compiled suite. */
export interface ForkReads {
  readonly upstreamUrl: string;
  /** The plain anvil forking the upstream at its head ("anvil" in the figures). */
  readonly anvilUrl: string;
  /** The plain anvil's process ids (its CPU is read from /proc). */
  readonly anvilPids: readonly number[];
  /** Runs the suite against a URL: its time (ms) and whether every test passed. */
  run(url: string): Promise<{ ms: number; passed: boolean }>;
  close(): Promise<void>;
}

/** Starts the upstream (with the suite's funding sent as real transactions), the plain anvil, and builds the suite. */
export async function startForkReads(): Promise<ForkReads> {
  const upstream: ForkUpstream = await startForkUpstream();
  let anvil: ChainNode | undefined;
  let project: ForgeProject | undefined;
  try {
    for (let seed = 0; seed < READ_TESTS; seed += 1) {
      const receipt = await upstream.node.rpc.request<{ status: string }>("eth_sendTransactionSync", [
        { from: DEPLOYER, to: accountOf(seed, 1), value: `0x${funding(seed).toString(16)}` },
      ]);
      if (receipt.status !== "0x1") throw new Error("the upstream's funding transfer failed");
    }
    const head = BigInt(await upstream.node.rpc.request<string>("eth_blockNumber"));
    anvil = await createAnvilBackend().start({ chainId: 1n, statePath: null, fork: { url: upstream.url, blockNumber: head } });
    project = await forgeProject(suiteSources(upstream.history.token));
    await project.forge(["build"]);
    const built = { anvil, project };
    return {
      upstreamUrl: upstream.url,
      anvilUrl: anvil.rpc.url,
      anvilPids: anvil.pids,
      async run(url) {
        const started = performance.now();
        const result = await built.project
          .forge(["test", "--fork-url", url, "--no-storage-caching"])
          .catch((error: { stdout?: string; stderr?: string }) => ({ stdout: `${error.stdout ?? ""}${error.stderr ?? ""}`, failed: true }));
        const ms = performance.now() - started;
        const passed = !("failed" in result) && new RegExp(`${READ_TESTS} tests passed, 0 failed`).test(result.stdout);
        if (!passed) console.log(`forge test --fork-url ${url} (read-heavy) failed:\n${result.stdout.slice(-2000)}`);
        return { ms, passed };
      },
      async close() {
        await built.project.close();
        await built.anvil.kill();
        await upstream.close();
      },
    };
  } catch (error) {
    await project?.close();
    await anvil?.kill();
    await upstream.close();
    throw error;
  }
}
