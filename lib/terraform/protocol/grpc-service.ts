/** Turns a protobufjs service into the service definition @grpc/grpc-js serves or makes clients from. */
import type { MethodDefinition, ServiceDefinition } from "@grpc/grpc-js";
import type { Type } from "protobufjs/light";
import { conversionOptions, protocolRoot } from "./descriptor";

/**
 * The grpc-js definition of a service of the protocol root, keyed by RPC name (`GetProviderSchema`), with
 * serializers that encode plain objects and decode to plain objects in {@link conversionOptions} form.
 * @example
 * server.addService(serviceDefinition("tfplugin6.Provider"), handlers);
 */
export function serviceDefinition(fullName: string): ServiceDefinition {
  const service = protocolRoot().lookupService(fullName);
  const definition: Record<string, MethodDefinition<object, object>> = {};
  for (const method of service.methodsArray) {
    method.resolve();
    const request = method.resolvedRequestType!;
    const response = method.resolvedResponseType!;
    definition[method.name] = {
      path: `/${fullName}/${method.name}`,
      requestStream: method.requestStream === true,
      responseStream: method.responseStream === true,
      requestSerialize: serializer(request),
      requestDeserialize: deserializer(request),
      responseSerialize: serializer(response),
      responseDeserialize: deserializer(response),
    };
  }
  return definition as ServiceDefinition;
}

function serializer(type: Type): (value: object) => Buffer {
  return (value) => {
    const message = type.fromObject(value as Record<string, unknown>);
    const bytes = type.encode(message).finish();
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  };
}

function deserializer(type: Type): (bytes: Buffer) => object {
  return (bytes) => type.toObject(type.decode(bytes), conversionOptions);
}
