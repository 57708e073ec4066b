import { Type, type Static } from "@sinclair/typebox";
import { RID_VALUES, type Rid } from "../domain/constants";

export { RID_VALUES, type Rid };

/** Error slugs by HTTP status (docs/api.md "Errors"; 402 is chainform's choice, which the hosted service does not show). */
export const ERROR_SLUGS = {
  400: "bad_request",
  401: "unauthorized",
  402: "request_failed",
  403: "insufficient_permissions",
  404: "resource_not_found",
  429: "too_many_requests",
  500: "internal_server_error",
  502: "bad_gateway",
  503: "service_unavailable",
  504: "gateway_timeout",
} as const;
/** An HTTP status the service answers errors with. */
export type ErrorStatus = keyof typeof ERROR_SLUGS;
/** A slug of `error.slug`. */
export type ErrorSlug = (typeof ERROR_SLUGS)[ErrorStatus];

/** The error body of every 4xx/5xx answer (docs/api.md "Errors"). `data` may carry further keys. */
export const ErrorBody = Type.Object({
  error: Type.Object({
    id: Type.String({ description: "Error ID to quote in bug reports" }),
    slug: Type.String({ description: "Short identifier for the status" }),
    message: Type.String({ description: "Explanation" }),
    data: Type.Optional(
      Type.Object(
        {
          rid: Type.Optional(Type.Union(RID_VALUES.map((r) => Type.Literal(r)))),
          field: Type.Optional(Type.String({ description: "chainform: the request field at fault, as a JSON pointer" })),
          missing_ids: Type.Optional(Type.Array(Type.String())),
        },
        { additionalProperties: true },
      ),
    ),
  }),
});
/** The error body of every 4xx/5xx answer. */
export type ErrorBody = Static<typeof ErrorBody>;
