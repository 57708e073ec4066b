import type { RelayMode } from "../domain/environment-rules";

/** The bridge between an environment's Virtual Environments, as given to {@link EnvironmentProps.bridge}. */
export interface BridgeConfig {
  /**
   * Whether the bridge is enabled.
   * @default true
   */
  readonly enabled?: boolean;
  /**
   * How messages are relayed: at once (`autoRelay`) or after `delaySeconds` (`delayedRelay`).
   * @default "autoRelay"
   */
  readonly relayMode?: RelayMode;
  /**
   * The relay delay in seconds; only with `relayMode: "delayedRelay"`.
   * @default - the service's default delay
   */
  readonly delaySeconds?: number;
}

/**
 * Ready-made bridge configurations.
 * @example
 * new Environment(this, "pr", { displayName: "PR", networks, bridge: Bridge.delayedRelay(30) });
 */
export class Bridge {
  /** Messages are relayed as soon as they are sent. */
  public static autoRelay(): BridgeConfig {
    return { enabled: true, relayMode: "autoRelay" };
  }

  /** Messages are relayed `delaySeconds` after they are sent, to test what happens while they are in flight. */
  public static delayedRelay(delaySeconds: number): BridgeConfig {
    return { enabled: true, relayMode: "delayedRelay", delaySeconds };
  }

  /** No bridge between the Virtual Environments. */
  public static disabled(): BridgeConfig {
    return { enabled: false };
  }

  private constructor() {}
}
