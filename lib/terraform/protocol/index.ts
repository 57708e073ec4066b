/**
 * The Terraform plugin protocol (tfplugin6 over go-plugin): handshake and mTLS, gRPC server, cty codec. Wire code
 * only; provider authors use `lib/terraform/framework` instead. The mTLS certificate comes from `lib/certificates`.
 */
export * from "./cty";
export type * from "./messages";
export type { ProviderServer, RequestContext } from "./provider-server";
export { decodeDynamicValue, encodeDynamicValue } from "./dynamic-value";
export { servePlugin } from "./serve";
export type { ServePluginOptions } from "./serve";
export { createPluginServer, GrpcError, GrpcStatus } from "./grpc-server";
export type { PluginServer, PluginServerOptions } from "./grpc-server";
export { serviceDefinition } from "./grpc-service";
export { UnaryGrpcServer } from "./h2-grpc";
export type { ServerTls, UnaryHandler } from "./h2-grpc";
export { loadDescriptor } from "./protobuf";
// bundle.ts (bundleProvider) is build-time tooling that loads esbuild: import it by path, never from here, so that
// a provider bundle importing this index does not pull esbuild in.
export { handshakeLine, readHandshakeEnvironment, MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from "./handshake";
