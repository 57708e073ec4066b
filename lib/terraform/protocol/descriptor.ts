/**
 * The protobuf types of the plugin protocol, built from the pre-generated JSON descriptor with protobufjs/light: no
 * .proto parsing at start-up, which matters because Terraform starts a provider process 3-5 times per command.
 */
import { Root, type INamespace, type IConversionOptions } from "protobufjs/light";
import { descriptor } from "./proto/descriptor.generated";

let root: Root | undefined;

/** The protobufjs root holding tfplugin6, plugin (go-plugin) and grpc.health.v1; built once, on first use. */
export function protocolRoot(): Root {
  root ??= Root.fromJSON(descriptor as unknown as INamespace);
  return root;
}

/**
 * How decoded messages look (the options @grpc/proto-loader users know): field names as in the .proto, int64 as
 * Number, bytes as Buffer, enums by name, unset scalars at their defaults, and a virtual field naming the member
 * set in each oneof.
 */
export const conversionOptions: IConversionOptions = {
  longs: Number,
  enums: String,
  bytes: Buffer,
  defaults: true,
  oneofs: true,
};
