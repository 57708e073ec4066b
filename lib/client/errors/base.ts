import { version } from "../version";

/** Where the client's documentation lives; `docsPath` values are anchors in it. */
export const docsBase = "lib/client/README.md";

/** Arguments shared by every error of the client. */
export interface BaseErrorParameters {
  /** Underlying error, kept for debugging; never carries request headers. */
  cause?: unknown;
  /** Longer explanation; defaults to the cause's message. */
  details?: string;
  /** Anchor in the client documentation, e.g. `#apierror`. */
  docsPath?: string;
  /** Extra lines shown between the short message and the footer (request, status, error id...). */
  metaMessages?: string[];
}

/**
 * The one root of every error the client throws. `shortMessage` is a single sentence; `message` adds the
 * meta lines, a docs pointer, the details and the version, like viem's errors. Secrets never reach any field:
 * the transport scrubs keys, tokens and Admin RPC URLs before it builds an error.
 *
 * @example
 * try { await client.getEnvironment({ environmentId }) }
 * catch (error) { if (error instanceof BaseError) console.error(error.shortMessage) }
 */
export class BaseError extends Error {
  override name = "ChainformError";
  /** One sentence saying what went wrong. */
  readonly shortMessage: string;
  /** The longer explanation (a cause's message or the service's explanation), or "". */
  readonly details: string;
  /** Anchor in the client documentation. */
  readonly docsPath: string | undefined;
  /** Extra lines of the full message. */
  readonly metaMessages: string[] | undefined;
  /** `chainform@<version>`. */
  readonly version = `chainform@${version}`;

  constructor(shortMessage: string, parameters: BaseErrorParameters = {}) {
    const details =
      parameters.details ??
      (parameters.cause instanceof BaseError
        ? parameters.cause.details
        : parameters.cause instanceof Error
          ? parameters.cause.message
          : "");
    const lines = [
      shortMessage || "An error occurred.",
      "",
      ...(parameters.metaMessages?.length ? [...parameters.metaMessages, ""] : []),
      ...(parameters.docsPath ? [`Docs: ${docsBase}${parameters.docsPath}`] : []),
      ...(details && details !== shortMessage ? [`Details: ${details}`] : []),
      `Version: chainform@${version}`,
    ];
    super(lines.join("\n"), parameters.cause === undefined ? undefined : { cause: parameters.cause });
    this.shortMessage = shortMessage;
    this.details = details;
    this.docsPath = parameters.docsPath;
    this.metaMessages = parameters.metaMessages;
  }

  /** Follows `cause` down the chain and returns the first error `match` accepts (or the last one). */
  walk(match?: (error: unknown) => boolean): unknown {
    let current: unknown = this as unknown;
    while (current instanceof Error && current.cause !== undefined) {
      if (match?.(current)) return current;
      current = current.cause;
    }
    return match ? (match(current) ? current : undefined) : current;
  }
}
