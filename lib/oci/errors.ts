/**
 * The one error of the OCI store: a one-line message naming the artifact and what to do, never a credential.
 */

/** Something about a registry or an artifact that stops the operation; its message is one line for a user. */
export class OciError extends Error {
  override readonly name = "OciError";
  /** The registry's HTTP status when it answered with one. */
  readonly status?: number;
  /** true when the registry could not be reached or refused our credentials: callers that can go on without it may. */
  readonly unavailable: boolean;

  constructor(message: string, options: { status?: number; unavailable?: boolean; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = options.status;
    this.unavailable = options.unavailable ?? false;
  }
}
