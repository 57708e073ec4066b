/**
 * Whether each network's upstream serves that network: its chain id, asked once, or taken from recordings when they
 * hold it (a network's chain id never changes, and recordings hold only what an upstream of it answered), so that a
 * warm fork asks its upstream nothing (docs/oci-store.md). An upstream is still checked before its first answer is
 * used (`Upstream.checkFirst`), so a `--fork` URL of another network never mixes its state into a fork's recordings.
 */
import type { Recordings } from "./recordings";
import { callKey } from "./recordings";
import { UpstreamError, type Upstream } from "./upstream";

/** An upstream that serves another network than the one it is set for: refused for good. */
export class WrongNetwork extends UpstreamError {}

/** Whether recordings hold the chain id of `networkId`, as that id. */
export function chainIdRecorded(recordings: Recordings, networkId: string): boolean {
  const answer = recordings.get(callKey("eth_chainId", [])) as { result?: unknown } | undefined;
  try {
    return typeof answer?.result === "string" && BigInt(answer.result) === BigInt(networkId);
  } catch {
    return false;
  }
}

/** The chain-id checks of one service's upstreams. */
export class ChainIdChecks {
  /** Networks whose upstream answered the right chain id once. */
  private readonly passed = new Set<string>();
  private readonly checking = new Map<string, Promise<void>>();

  /** Whether the upstream of a network answered its chain id. */
  has(networkId: string): boolean {
    return this.passed.has(networkId);
  }

  /**
   * Asks the upstream its chain id, once per network: another network's RPC is refused for good (`WrongNetwork`, an
   * `UpstreamError` "refused": the `--fork` setting's fault); an upstream that failed is asked again next time.
   */
  check(networkId: string, upstream: Upstream): Promise<void> {
    if (this.passed.has(networkId)) return Promise.resolve();
    let checking = this.checking.get(networkId);
    if (!checking) {
      checking = upstream.request<string>("eth_chainId").then((chainId) => {
        let answered: bigint;
        try {
          answered = BigInt(chainId);
        } catch {
          throw new UpstreamError("bad-answer", `the upstream of network ${networkId} answered eth_chainId with no chain id`);
        }
        if (answered !== BigInt(networkId)) {
          throw new WrongNetwork(
            "refused",
            `the upstream of network ${networkId} answers chain id ${answered}, not ${networkId}: it is another network's RPC`,
          );
        }
        this.passed.add(networkId);
      });
      checking.catch((error: unknown) => {
        if (!(error instanceof WrongNetwork)) this.checking.delete(networkId);
      });
      this.checking.set(networkId, checking);
    }
    return checking;
  }
}
