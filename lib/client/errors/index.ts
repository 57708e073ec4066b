export { BaseError, type BaseErrorParameters } from "./base";
export { ApiError, RateLimitError, type ApiErrorParameters } from "./api";
export {
  ClientConfigError,
  ConnectionError,
  InsecureUrlError,
  InvalidResponseError,
  TimeoutError,
  type RequestLocation,
} from "./transport";
import type { ApiError, RateLimitError } from "./api";
import type { ClientConfigError, ConnectionError, InvalidResponseError, TimeoutError } from "./transport";

/** Every error an operation that talks to the service can throw. */
export type RequestErrorType =
  | ApiError
  | RateLimitError
  | TimeoutError
  | ConnectionError
  | InvalidResponseError
  | ClientConfigError;
