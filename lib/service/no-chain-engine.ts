/**
 * The chain engine used when the service is built without one: every chain operation answers the spec's 402
 * with a clear "no chain engine" message. Deleting and closing have no chains to act on, so they succeed.
 */
import { ChainRequestError, type ChainEngine } from "./chains";

function unavailable(operation: string): never {
  throw new ChainRequestError(402, `no chain engine: ${operation} needs a chain engine, and this service was started without one`);
}

/**
 * A `ChainEngine` without chains.
 *
 * @example
 * const app = await buildApp({ createChainEngine: () => new NoChainEngine() });
 */
export class NoChainEngine implements ChainEngine {
  async rpc(): Promise<never> {
    return unavailable("JSON-RPC");
  }

  async sendTransaction(): Promise<never> {
    return unavailable("sending a transaction");
  }

  async simulateOnVnet(): Promise<never> {
    return unavailable("simulating a transaction");
  }

  async simulateOnInstanceVnet(): Promise<never> {
    return unavailable("simulating a transaction");
  }

  async simulateOnNetwork(): Promise<never> {
    return unavailable("simulating a transaction");
  }

  async simulateBundleOnNetwork(): Promise<never> {
    return unavailable("simulating a transaction");
  }

  async destroyVnets(): Promise<void> {}

  async close(): Promise<void> {}
}
