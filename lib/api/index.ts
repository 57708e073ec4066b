/**
 * TypeBox schemas of the service API (the spec, with the choices in docs/service.md and docs/api.md), built from the
 * domain's constants (lib/domain): the one source of truth for the local service's validation and serialization and
 * for the client's types. The domain rules the API's users need most are re-exported here.
 */
export * from "./common";
export * from "./errors";
export * from "./projects";
export * from "./delivery-channels";
export * from "./actions";
export * from "./networks";
export * from "./environments";
export * from "./simulations";
export * from "./transactions";
export * from "./fixtures";
export * from "../domain/slug";
export * from "../domain/explorer";
export * from "../domain/amounts";
export * from "../domain/chain";
export * from "../domain/environment-rules";
