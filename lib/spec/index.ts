/**
 * TypeBox schemas of the service API (the spec, with the choices in docs/service.md): the one source of truth
 * for the local service's validation and serialization and for the client's types.
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
export * from "./slug";
export * from "./explorer";
export * from "./amounts";
export * from "./chain";
export * from "./environment-rules";
