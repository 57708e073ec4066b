/**
 * What a caller hears when a call to a chain missed its deadline (../wire/chain-timeout.ts): the RPC URLs a JSON-RPC error
 * naming it, each call of a batch with its own id; the API a 504 with the same message.
 */
import { ChainTimeoutError } from "../wire/chain-timeout";
import { chainDidNotAnswer, rpcError } from "./rpc-proxy";
import { ChainRequestError, type JsonRpcRequest, type JsonRpcResponse } from "../types";

/** The answers of calls past their deadline: the JSON-RPC error naming the timeout, with each caller's id. */
export function timeoutAnswers(
  requests: readonly JsonRpcRequest[],
  batch: boolean,
  error: ChainTimeoutError,
): JsonRpcResponse | JsonRpcResponse[] {
  const answers = requests.map((request) => rpcError(request.id, -32000, chainDidNotAnswer(error)));
  return batch ? answers : answers[0];
}

/** A call past its deadline as the API answers it: 504 naming the timeout and its setting. */
export function asGatewayTimeout(error: unknown): never {
  throw error instanceof ChainTimeoutError ? new ChainRequestError(504, chainDidNotAnswer(error)) : error;
}
