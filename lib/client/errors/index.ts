export { BaseError, type BaseErrorParameters } from "./base";
export { ApiError, RateLimitError, type ApiErrorParameters } from "./api";
export {
  CertificateError,
  ClientConfigError,
  ConnectionError,
  describeAttempts,
  type AttemptsMade,
  InsecureUrlError,
  InvalidResponseError,
  PlainHttpServiceError,
  TimeoutError,
  type RequestLocation,
} from "./transport";
import type { ApiError, RateLimitError } from "./api";
import type {
  CertificateError,
  ClientConfigError,
  ConnectionError,
  InvalidResponseError,
  PlainHttpServiceError,
  TimeoutError,
} from "./transport";

/** Every error an operation that talks to the service can throw. */
export type RequestErrorType =
  | ApiError
  | RateLimitError
  | TimeoutError
  | ConnectionError
  | CertificateError
  | PlainHttpServiceError
  | InvalidResponseError
  | ClientConfigError;
