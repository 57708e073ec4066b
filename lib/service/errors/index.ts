/**
 * The service's error codes, in one table, and the one function that renders the spec's error body
 * (`{ error: { id, slug, message, data? } }`, docs/api.md "Errors").
 *
 * This folder is the errors' one home: the table and the body (here), the API's one error handler (./plugin.ts), and
 * the answers to what Node's HTTP parser refuses (./client-errors.ts).
 */
import { randomUUID } from "node:crypto";
import type { FastifyReply } from "fastify";
import { ERROR_SLUGS, type ErrorBody, type ErrorStatus, type Rid } from "../../api";

/** Extra context of an error body: the resource type, the field at fault, and any further keys. */
export interface ErrorData {
  readonly rid?: Rid;
  /** The request field at fault, as a JSON pointer (`/network_configs/0/network_id`). */
  readonly field?: string;
  readonly [key: string]: unknown;
}

/**
 * An error the service answers with the spec's error body. Routes throw it; the one error handler renders it.
 *
 * @example
 * throw new ServiceError(404, "environment 5b1… not found", { rid: "rid:vnet" });
 */
export class ServiceError extends Error {
  constructor(
    readonly status: ErrorStatus,
    message: string,
    readonly data?: ErrorData,
  ) {
    super(message);
    this.name = "ServiceError";
  }
}

/** 400 `bad_request` naming the field at fault. */
export function badRequest(message: string, field?: string, data?: ErrorData): ServiceError {
  return new ServiceError(400, message, field === undefined ? data : { ...data, field });
}

/** 404 `resource_not_found` of a resource type. */
export function notFound(rid: Rid, message: string, data?: ErrorData): ServiceError {
  return new ServiceError(404, message, { rid, ...data });
}

/** 403 `insufficient_permissions`. */
export function forbidden(message: string, data?: ErrorData): ServiceError {
  return new ServiceError(403, message, data);
}

/** 401 `unauthorized`. */
export function unauthorized(message: string): ServiceError {
  return new ServiceError(401, message);
}

/** The spec's error body for a status; a fresh error id each time, to quote in bug reports. */
export function errorBody(status: ErrorStatus, message: string, data?: ErrorData): ErrorBody {
  const error: ErrorBody["error"] = { id: randomUUID(), slug: ERROR_SLUGS[status], message };
  if (data && Object.keys(data).length > 0) error.data = data as ErrorBody["error"]["data"];
  return { error };
}

/** Maps any HTTP status to one the error table knows (unknown 4xx become 400, unknown 5xx 500). */
export function knownStatus(status: number): ErrorStatus {
  if (status in ERROR_SLUGS) return status as ErrorStatus;
  return status >= 500 ? 500 : 400;
}

/**
 * Whether an error is a full disk (or an exhausted quota): SQLite's SQLITE_FULL under either driver (better-sqlite3
 * names the code, node:sqlite gives the number 13), or ENOSPC/EDQUOT from the file system. The service answers it
 * 503 with a reason instead of an opaque 500, and works again once space is freed.
 */
export function isDiskFull(error: unknown): boolean {
  const e = error as { code?: unknown; errcode?: unknown; errstr?: unknown; message?: unknown } | null;
  if (!e || typeof e !== "object") return false;
  if (e.code === "SQLITE_FULL" || e.code === "ENOSPC" || e.code === "EDQUOT") return true;
  if (typeof e.errcode === "number" && (e.errcode & 0xff) === 13) return true;
  return typeof e.message === "string" && /database or disk is full/i.test(e.message);
}

/** The message of a full-disk answer (no path: callers are not told where the service keeps its data). */
export function diskFullMessage(): string {
  return "the service's disk is full: nothing was changed; try again once the operator has freed space";
}

/** Answers with the spec's error body (a status outside its table becomes the nearest in it). */
export function sendError(reply: FastifyReply, status: number, message: string, data?: ErrorData): void {
  const known = knownStatus(status);
  reply.code(known).send(errorBody(known, message, data));
}
