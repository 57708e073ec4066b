/**
 * The domain: every constant, enum, grammar and cross-field rule of chainform, as pure TypeBox-free functions
 * (docs/service.md "Domain rules"). The service, the client, the provider, the constructs and the CLI import their
 * rules from here; the API's wire schemas (lib/api) are built from it.
 */
export * from "./slug";
export * from "./explorer";
export * from "./amounts";
export * from "./chain";
export * from "./environment-rules";
export * from "./address";
export * from "./constants";
export * from "./loopback";
export * from "./transactions";
export * from "./uuid";
