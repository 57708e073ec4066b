/**
 * Request validation from the `lib/api` schemas (TypeBox, compiled). Bodies are checked as sent, with no type
 * coercion: `"1"` is not a number. Query strings and path parameters are text, so numeric and boolean fields are
 * converted first, strictly (`1.5`, `1e2`, `0x10` stay invalid integers). A failure is the spec's 400 body
 * naming the field, with `data.field` a JSON pointer.
 *
 * This folder is what a request to the API must be: its schemas checked (here) and its body JSON (./json-bodies.ts).
 */
import type { FastifySchemaCompiler } from "fastify";
import { FormatRegistry, type TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { ValueErrorType, type ValueError } from "@sinclair/typebox/errors";
import { addressProblem } from "../../domain/address";
import { isUuid } from "../../domain/uuid";
import { ADDRESS_FORMAT } from "../../api/common";
import { badRequest } from "../errors";

if (!FormatRegistry.Has("uuid")) FormatRegistry.Set("uuid", isUuid);
if (!FormatRegistry.Has("date-time")) FormatRegistry.Set("date-time", (value) => !Number.isNaN(Date.parse(value)));

const NUMERIC = /^-?[0-9]+(\.[0-9]+)?$/;

const PART_NAMES: Record<string, string> = {
  body: "request body",
  querystring: "query parameter",
  params: "path parameter",
  headers: "header",
};

/** Fastify validator compiler for TypeBox schemas (see the module comment). */
export const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const check = TypeCompiler.Compile(schema);
  const convert = httpPart === "body" ? (value: unknown) => value : (value: unknown) => convertText(schema, value);
  const part = httpPart ?? "body";
  return (value: unknown) => {
    const converted = convert(value);
    if (check.Check(converted)) return { value: converted };
    return { error: describe(part, check.Errors(converted).First()!) };
  };
};

/** Converts the text values of a query string or path to the numbers and booleans their schema asks for. */
function convertText(schema: TSchema, value: unknown): unknown {
  const properties = schema.properties as Record<string, TSchema> | undefined;
  if (typeof value !== "object" || value === null || !properties) return value;
  const converted: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [name, text] of Object.entries(converted)) {
    const type = properties[name]?.type;
    if (typeof text !== "string") continue;
    if ((type === "integer" || type === "number") && NUMERIC.test(text)) converted[name] = Number(text);
    else if (type === "boolean" && (text === "true" || text === "false")) converted[name] = text === "true";
  }
  return converted;
}

function describe(part: string, error: ValueError) {
  const pointer = error.path || "/";
  const where = part === "body" ? `${PART_NAMES.body} at ${pointer}` : `${PART_NAMES[part] ?? part} "${error.path.slice(1)}"`;
  return badRequest(`Invalid ${where}: ${explain(error)}`, pointer, { location: part === "querystring" ? "query" : part });
}

function explain(error: ValueError): string {
  const literals = (error.schema.anyOf as TSchema[] | undefined)?.map((s) => s.const);
  if (error.type === ValueErrorType.Union && literals?.every((v) => typeof v === "string")) {
    return `expected one of ${literals.join(", ")}`;
  }
  if (error.type === ValueErrorType.ObjectRequiredProperty) return "required";
  if (error.type === ValueErrorType.StringFormat && error.schema.format === ADDRESS_FORMAT)
    return addressProblem(error.value) ?? error.message;
  if (error.type === ValueErrorType.ObjectAdditionalProperties) return "unknown field";
  return error.message.charAt(0).toLowerCase() + error.message.slice(1);
}
