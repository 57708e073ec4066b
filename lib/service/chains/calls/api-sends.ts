/**
 * What the API's `POST .../transactions` adds to a send before it reaches the chain: a gas limit when the caller gave
 * none, and the errors it answers with.
 */
import { JsonRpcError, type JsonRpcClient } from "../wire/json-rpc";
import { ChainRequestError } from "../types";

/** Gas given to an API-sent transaction whose estimate reverts, so that it is mined (and recorded) as failed. */
const FAILING_TRANSACTION_GAS = "0xf4240";

/** A gas limit for an API-sent transaction: the estimate and a fifth, or a fixed amount when it reverts (it is mined failed). */
export async function estimateOrFail(rpc: JsonRpcClient, tx: Record<string, string>): Promise<string> {
  try {
    const estimate = BigInt(await rpc.request<string>("eth_estimateGas", [tx]));
    return `0x${(estimate + estimate / 5n).toString(16)}`;
  } catch (error) {
    if (error instanceof JsonRpcError && /revert/i.test(error.message)) return FAILING_TRANSACTION_GAS;
    throw error instanceof JsonRpcError
      ? new ChainRequestError(400, `the transaction cannot be sent: ${error.message}`, "/callArgs")
      : error;
  }
}
