/**
 * A small protobuf (proto3) codec driven by the JSON descriptor the build generates from our .proto files. The
 * plugin protocol uses only strings, bytes, bools, int64s, enums, messages, repeated messages, maps and one oneof,
 * so this is all it needs; a general protobuf library costs a provider process ~15 ms of start-up, paid 3-5 times
 * per Terraform command. Unknown fields (what a newer Terraform adds) are skipped, as protobuf's rules require.
 *
 * Decoded messages look like @grpc/proto-loader's (`conversionOptions` in descriptor.ts): field names as in the
 * .proto, int64 as number, bytes as Buffer, enums by name, unset fields at their defaults (messages null), and each
 * oneof's set member named by a virtual field. The wire format itself is ./protobuf-wire.ts.
 */
import { Reader, Writer } from "./protobuf-wire";

/** The protobufjs JSON descriptor shape we read (the parts our .proto files use). */
export interface NamespaceJson {
  nested?: Record<string, NamespaceJson>;
  fields?: Record<string, FieldJson>;
  oneofs?: Record<string, { oneof: string[] }>;
  values?: Record<string, number>;
  methods?: Record<string, { requestType: string; responseType: string; requestStream?: boolean; responseStream?: boolean }>;
}

interface FieldJson {
  type: string;
  id: number;
  rule?: string;
  keyType?: string;
  options?: Record<string, unknown>;
}

const SCALARS = new Set(["string", "bytes", "bool", "int64", "int32", "uint32", "uint64"]);

/** An enum type: names to numbers and back. */
export class EnumType {
  private readonly names = new Map<number, string>();
  constructor(
    /** Dotted full name, e.g. `tfplugin6.StringKind`. */
    readonly fullName: string,
    readonly values: Readonly<Record<string, number>>,
  ) {
    for (const [name, value] of Object.entries(values)) if (!this.names.has(value)) this.names.set(value, name);
  }

  /** The name of a number (the number itself when the enum does not know it, as from a newer Terraform). */
  nameOf(value: number): string | number {
    return this.names.get(value) ?? value;
  }

  /** The number of a name or number. */
  valueOf(value: unknown): number {
    if (typeof value === "number") return value;
    const number = this.values[String(value)];
    if (number === undefined) throw new TypeError(`${this.fullName}: unknown value ${JSON.stringify(value)}`);
    return number;
  }
}

interface Field {
  readonly name: string;
  readonly id: number;
  readonly type: string;
  readonly repeated: boolean;
  readonly map: boolean;
  /** Has presence: a oneof member or a proto3 `optional`, encoded even at its default and absent when unset. */
  readonly presence: boolean;
  readonly oneof?: string;
  resolved?: MessageType | EnumType;
}

/** A message type: encodes plain objects, decodes to plain objects. */
export class MessageType {
  /** Fields by number, for decoding. */
  private readonly byId = new Map<number, Field>();

  constructor(
    /** Dotted full name, e.g. `tfplugin6.Schema.Block`. */
    readonly fullName: string,
    /** The fields, in declaration order. */
    readonly fields: readonly Field[],
  ) {
    for (const field of fields) this.byId.set(field.id, field);
  }

  /** Encodes an object (unknown keys are ignored; enums by name or number; int64 as number, string or bigint). */
  encode(value: object): Buffer {
    const writer = new Writer();
    this.write(writer, value as Record<string, unknown>);
    return writer.finish();
  }

  /** Decodes bytes. */
  decode(bytes: Uint8Array): Record<string, unknown> {
    const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return this.read(new Reader(buffer, 0, buffer.length));
  }

  private write(writer: Writer, value: Record<string, unknown>): void {
    for (const field of this.fields) {
      const item = value[field.name];
      if (item === undefined || item === null) continue;
      if (field.map) {
        const valueField: Field = { name: "value", id: 2, type: field.type, repeated: false, map: false, presence: true };
        if (field.resolved) valueField.resolved = field.resolved;
        for (const [key, element] of Object.entries(item as Record<string, unknown>)) {
          writer.tag(field.id, 2);
          writer.nested((inner) => {
            writeValue(inner, { name: "key", id: 1, type: "string", repeated: false, map: false, presence: true }, key);
            writeValue(inner, valueField, element);
          });
        }
      } else if (field.repeated) {
        for (const element of item as unknown[]) writeValue(writer, field, element);
      } else if (field.presence || !isDefault(field, item)) {
        writeValue(writer, field, item);
      }
    }
  }

  private read(reader: Reader): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const field of this.fields) if (!field.presence) out[field.name] = defaultOf(field);
    while (reader.position < reader.end) {
      const tag = reader.varint();
      const id = Math.floor(tag / 8);
      const wireType = tag & 7;
      const field = this.byId.get(id);
      if (!field) {
        reader.skip(wireType);
        continue;
      }
      if (field.map) {
        const entry = reader.sub();
        let key = "";
        let element: unknown =
          field.resolved instanceof MessageType
            ? field.resolved.read(new Reader(Buffer.alloc(0), 0, 0))
            : defaultOf({ ...field, map: false, repeated: false });
        while (entry.position < entry.end) {
          const entryTag = entry.varint();
          if (entryTag >>> 3 === 1) key = entry.string();
          else if (entryTag >>> 3 === 2) element = readValue(entry, field);
          else entry.skip(entryTag & 7);
        }
        (out[field.name] as Record<string, unknown>)[key] = element;
      } else if (field.repeated) {
        (out[field.name] as unknown[]).push(readValue(reader, field));
      } else {
        out[field.name] = readValue(reader, field);
        if (field.oneof) {
          for (const other of this.fields) if (other.oneof === field.oneof && other !== field) delete out[other.name];
          out[field.oneof] = field.name;
        }
      }
    }
    return out;
  }

  /** For decoding nested messages. */
  readFrom(reader: Reader): Record<string, unknown> {
    return this.read(reader);
  }

  /** For encoding nested messages. */
  writeTo(writer: Writer, value: Record<string, unknown>): void {
    this.write(writer, value);
  }
}

function isDefault(field: Field, value: unknown): boolean {
  if (field.resolved instanceof MessageType) return false;
  if (field.resolved instanceof EnumType) return field.resolved.valueOf(value) === 0;
  switch (field.type) {
    case "string":
      return value === "";
    case "bytes":
      return (value as Uint8Array).length === 0;
    case "bool":
      return value === false;
    default:
      return Number(value) === 0;
  }
}

// The default of an absent bytes field: one shared empty Buffer (it has no bytes to change), not one per message.
const NO_BYTES = Buffer.alloc(0);

function defaultOf(field: Field): unknown {
  if (field.map) return {};
  if (field.repeated) return [];
  if (field.resolved instanceof MessageType) return null;
  if (field.resolved instanceof EnumType) return field.resolved.nameOf(0);
  switch (field.type) {
    case "string":
      return "";
    case "bytes":
      return NO_BYTES;
    case "bool":
      return false;
    default:
      return 0;
  }
}

function writeValue(writer: Writer, field: Field, value: unknown): void {
  const type = field.resolved;
  if (type instanceof MessageType) {
    writer.tag(field.id, 2);
    writer.nested((inner) => type.writeTo(inner, value as Record<string, unknown>));
  } else if (type instanceof EnumType) {
    writer.tag(field.id, 0);
    writer.varint(BigInt(type.valueOf(value)));
  } else if (field.type === "string") {
    writer.tag(field.id, 2);
    writer.bytes(Buffer.from(String(value), "utf8"));
  } else if (field.type === "bytes") {
    writer.tag(field.id, 2);
    writer.bytes(value as Uint8Array);
  } else if (field.type === "bool") {
    writer.tag(field.id, 0);
    writer.varint(value ? 1n : 0n);
  } else {
    writer.tag(field.id, 0);
    writer.varint(BigInt(value as number | string | bigint));
  }
}

function readValue(reader: Reader, field: Field): unknown {
  const type = field.resolved;
  if (type instanceof MessageType) return type.readFrom(reader.sub());
  if (type instanceof EnumType) return type.nameOf(Number(BigInt.asIntN(32, reader.varint64())));
  switch (field.type) {
    case "string":
      return reader.string();
    case "bytes":
      return Buffer.from(reader.bytes());
    case "bool":
      return reader.varint() !== 0;
    case "int64":
    case "int32":
      return Number(BigInt.asIntN(64, reader.varint64()));
    default:
      return Number(reader.varint64());
  }
}

/** A service: its methods with their resolved request and response types. */
export interface ServiceType {
  readonly fullName: string;
  readonly methods: readonly {
    readonly name: string;
    readonly request: MessageType;
    readonly response: MessageType;
    readonly requestStream: boolean;
    readonly responseStream: boolean;
  }[];
}

/** The types of a descriptor, by full name. */
export interface ProtoRoot {
  lookupType(fullName: string): MessageType;
  lookupService(fullName: string): ServiceType;
}

/**
 * The types of a protobufjs JSON descriptor, resolving type references the way protobuf does: from the innermost
 * enclosing scope outwards. A type is built when first looked up, with the types it refers to: a provider process
 * that serves a few RPCs builds a few of the protocol's 72 message types, not all of them before its handshake.
 * @example
 * const root = loadDescriptor(descriptor);
 * root.lookupType("tfplugin6.DynamicValue").decode(bytes);
 */
export function loadDescriptor(json: NamespaceJson): ProtoRoot {
  const namespaces = new Map<string, NamespaceJson>();
  const services = new Map<string, NamespaceJson>();
  const visit = (namespace: NamespaceJson, fullName: string) => {
    if (namespace.values || namespace.fields) namespaces.set(fullName, namespace);
    if (namespace.methods) services.set(fullName, namespace);
    for (const [name, nested] of Object.entries(namespace.nested ?? {})) visit(nested, fullName ? `${fullName}.${name}` : name);
  };
  visit(json, "");

  const types = new Map<string, MessageType | EnumType>();
  const build = (fullName: string): MessageType | EnumType => {
    const built = types.get(fullName);
    if (built) return built;
    const namespace = namespaces.get(fullName)!;
    if (namespace.values) {
      const type = new EnumType(fullName, namespace.values);
      types.set(fullName, type);
      return type;
    }
    const oneofOf = new Map<string, string>();
    for (const [oneof, { oneof: members }] of Object.entries(namespace.oneofs ?? {})) {
      // proto3 `optional` fields come as synthetic oneofs named "_field": presence, but no virtual field.
      if (!oneof.startsWith("_")) for (const member of members) oneofOf.set(member, oneof);
    }
    const fields = Object.entries(namespace.fields!).map(([name, f]): Field => {
      const oneof = oneofOf.get(name);
      return {
        name,
        id: f.id,
        type: f.type,
        repeated: f.rule === "repeated",
        map: f.keyType !== undefined,
        presence: oneof !== undefined || f.options?.proto3_optional === true,
        ...(oneof ? { oneof } : {}),
      };
    });
    const type = new MessageType(fullName, fields);
    types.set(fullName, type); // before its fields' types: a type may refer to itself, directly or not
    for (const field of fields) if (!SCALARS.has(field.type)) field.resolved = resolve(field.type, fullName);
    return type;
  };
  const resolve = (reference: string, scope: string): MessageType | EnumType => {
    for (let parts = scope.split("."); ; parts.pop()) {
      const candidate = [...parts, reference].filter(Boolean).join(".");
      if (namespaces.has(candidate)) return build(candidate);
      if (parts.length === 0) throw new Error(`protobuf: cannot resolve type "${reference}" from "${scope}"`);
    }
  };
  return {
    lookupType(fullName) {
      const type = namespaces.has(fullName) ? build(fullName) : undefined;
      if (!(type instanceof MessageType)) throw new Error(`protobuf: no message type "${fullName}"`);
      return type;
    },
    lookupService(fullName) {
      const service = services.get(fullName);
      if (!service) throw new Error(`protobuf: no service "${fullName}"`);
      const scope = fullName.split(".").slice(0, -1).join(".");
      return {
        fullName,
        methods: Object.entries(service.methods!).map(([name, m]) => {
          let request: MessageType | undefined;
          let response: MessageType | undefined;
          return {
            name,
            get request() {
              return (request ??= resolve(m.requestType, scope) as MessageType);
            },
            get response() {
              return (response ??= resolve(m.responseType, scope) as MessageType);
            },
            requestStream: m.requestStream === true,
            responseStream: m.responseStream === true,
          };
        }),
      };
    },
  };
}
