/**
 * The protobuf types of the plugin protocol, built from the pre-generated JSON descriptor: no .proto parsing and no
 * protobuf library at start-up, which matters because Terraform starts a provider process 3-5 times per command.
 */
import { descriptor } from "./proto/descriptor.generated";
import { loadDescriptor, type NamespaceJson, type ProtoRoot } from "./protobuf";

let root: ProtoRoot | undefined;

/** The types of tfplugin6, plugin (go-plugin) and grpc.health.v1; built once, on first use. */
export function protocolRoot(): ProtoRoot {
  root ??= loadDescriptor(descriptor as NamespaceJson);
  return root;
}
