/** Turns a service of the protocol descriptor into a gRPC service definition (grpc-js's shape, used by both sides). */
import type { MethodDefinition, ServiceDefinition } from "@grpc/grpc-js";
import { protocolRoot } from "./descriptor";

/**
 * The gRPC definition of a service of the protocol root, keyed by RPC name (`GetProviderSchema`), with
 * serializers that encode plain objects and decode to plain objects (see protobuf.ts for their shape). The
 * provider's server uses it, and tests hand it to @grpc/grpc-js's `makeClientConstructor` to act as Terraform.
 * @example
 * server.addService(serviceDefinition("tfplugin6.Provider"), handlers);
 */
export function serviceDefinition(fullName: string): ServiceDefinition {
  const definition: Record<string, MethodDefinition<object, object>> = {};
  for (const method of protocolRoot().lookupService(fullName).methods) {
    definition[method.name] = {
      path: `/${fullName}/${method.name}`,
      requestStream: method.requestStream,
      responseStream: method.responseStream,
      requestSerialize: (value) => method.request.encode(value),
      requestDeserialize: (bytes) => method.request.decode(bytes),
      responseSerialize: (value) => method.response.encode(value),
      responseDeserialize: (bytes) => method.response.decode(bytes),
    };
  }
  return definition as ServiceDefinition;
}
