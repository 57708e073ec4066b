/**
 * The tfplugin6 messages as plain objects, in the shape the gRPC layer hands them over (see `conversionOptions`):
 * requests arrive with every field present (unset messages are null), responses may leave fields out. Field names
 * are the .proto's, so the published protocol documentation applies as written.
 */

/** An encoded cty value; exactly one of the two encodings is set (an empty one counts as unset). */
export interface DynamicValue {
  msgpack?: Uint8Array;
  json?: Uint8Array;
}

/** One step of an attribute path; exactly one member is set. */
export type AttributePathStep = { attribute_name: string } | { element_key_string: string } | { element_key_int: number };

/** A path to an attribute, from the root of a resource's value. */
export interface AttributePath {
  steps: AttributePathStep[];
}

/** A diagnostic: the only way errors and warnings reach the user. */
export interface Diagnostic {
  severity: "ERROR" | "WARNING";
  summary: string;
  detail?: string;
  attribute?: AttributePath;
}

/** How a description is formatted. */
export type StringKind = "PLAIN" | "MARKDOWN";

/** A schema attribute; `type` is the cty type as JSON bytes. */
export interface SchemaAttribute {
  name: string;
  type: Uint8Array;
  description?: string;
  description_kind?: StringKind;
  required?: boolean;
  optional?: boolean;
  computed?: boolean;
  sensitive?: boolean;
  deprecated?: boolean;
  /** Nested attributes: the element's attributes and how they repeat (then `type` is empty). */
  nested_type?: { attributes: SchemaAttribute[]; nesting: "SINGLE" | "LIST" | "SET" | "MAP" };
}

/** A nested block type of a schema block. */
export interface SchemaNestedBlock {
  type_name: string;
  block: SchemaBlock;
  nesting: "SINGLE" | "LIST" | "SET" | "MAP" | "GROUP";
  min_items?: number;
  max_items?: number;
}

/** A schema block: attributes and nested blocks. */
export interface SchemaBlock {
  version?: number;
  attributes: SchemaAttribute[];
  block_types: SchemaNestedBlock[];
  description?: string;
  description_kind?: StringKind;
  deprecated?: boolean;
}

/** A versioned schema of a provider, resource or data source. */
export interface Schema {
  version: number;
  block: SchemaBlock;
}

/** Optional protocol features the provider supports. */
export interface ServerCapabilities {
  plan_destroy?: boolean;
  get_provider_schema_optional?: boolean;
  move_resource_state?: boolean;
}

/** Optional protocol features Terraform supports. */
export interface ClientCapabilities {
  deferral_allowed: boolean;
  write_only_attributes_allowed: boolean;
}

/** GetMetadata: what the provider offers, without schemas. Terraform 1.11 does not call it. */
export interface GetMetadataResponse {
  server_capabilities?: ServerCapabilities;
  diagnostics?: Diagnostic[];
  resources?: { type_name: string }[];
  data_sources?: { type_name: string }[];
  functions?: { name: string }[];
  ephemeral_resources?: { type_name: string }[];
}

/** A parameter of a provider-defined function; `type` is its cty type as JSON bytes. */
export interface FunctionParameter {
  name: string;
  type: Uint8Array;
  allow_null_value?: boolean;
  allow_unknown_values?: boolean;
  description?: string;
  description_kind?: StringKind;
}

/** A provider-defined function's signature and documentation (`provider::NAME::FUNCTION` in HCL). */
export interface FunctionDefinition {
  parameters: FunctionParameter[];
  variadic_parameter?: FunctionParameter;
  return: { type: Uint8Array };
  summary?: string;
  description?: string;
  description_kind?: StringKind;
  deprecation_message?: string;
}

/** Why a function call failed: the text, and the index of the argument at fault when one is. */
export interface FunctionError {
  text: string;
  function_argument?: number;
}

/** GetProviderSchema response. */
export interface GetProviderSchemaResponse {
  provider?: Schema;
  provider_meta?: Schema;
  resource_schemas?: Record<string, Schema>;
  data_source_schemas?: Record<string, Schema>;
  functions?: Record<string, FunctionDefinition>;
  ephemeral_resource_schemas?: Record<string, Schema>;
  diagnostics?: Diagnostic[];
  server_capabilities?: ServerCapabilities;
}

/** Responses that carry only diagnostics. */
export interface DiagnosticsResponse {
  diagnostics?: Diagnostic[];
}

/** ValidateProviderConfig request. */
export interface ValidateProviderConfigRequest {
  config: DynamicValue | null;
}

/** ConfigureProvider request. */
export interface ConfigureProviderRequest {
  terraform_version: string;
  config: DynamicValue | null;
  client_capabilities: ClientCapabilities | null;
}

/** ValidateResourceConfig request. */
export interface ValidateResourceConfigRequest {
  type_name: string;
  config: DynamicValue | null;
  client_capabilities: ClientCapabilities | null;
}

/** ValidateDataResourceConfig request. */
export interface ValidateDataResourceConfigRequest {
  type_name: string;
  config: DynamicValue | null;
}

/** UpgradeResourceState request: the stored state, as JSON (or legacy flatmap), at the version it was written. */
export interface UpgradeResourceStateRequest {
  type_name: string;
  version: number;
  raw_state: { json: Uint8Array; flatmap: Record<string, string> } | null;
}

/** UpgradeResourceState response. */
export interface UpgradeResourceStateResponse {
  upgraded_state?: DynamicValue;
  diagnostics?: Diagnostic[];
}

/** ReadResource request. */
export interface ReadResourceRequest {
  type_name: string;
  current_state: DynamicValue | null;
  private: Uint8Array;
  provider_meta: DynamicValue | null;
  client_capabilities: ClientCapabilities | null;
}

/** ReadResource response; a null new_state means the object is gone. */
export interface ReadResourceResponse {
  new_state?: DynamicValue;
  diagnostics?: Diagnostic[];
  private?: Uint8Array;
}

/** PlanResourceChange request. */
export interface PlanResourceChangeRequest {
  type_name: string;
  prior_state: DynamicValue | null;
  proposed_new_state: DynamicValue | null;
  config: DynamicValue | null;
  prior_private: Uint8Array;
  provider_meta: DynamicValue | null;
  client_capabilities: ClientCapabilities | null;
}

/** PlanResourceChange response. */
export interface PlanResourceChangeResponse {
  planned_state?: DynamicValue;
  requires_replace?: AttributePath[];
  planned_private?: Uint8Array;
  diagnostics?: Diagnostic[];
}

/** ApplyResourceChange request. */
export interface ApplyResourceChangeRequest {
  type_name: string;
  prior_state: DynamicValue | null;
  planned_state: DynamicValue | null;
  config: DynamicValue | null;
  planned_private: Uint8Array;
  provider_meta: DynamicValue | null;
}

/** ApplyResourceChange response. */
export interface ApplyResourceChangeResponse {
  new_state?: DynamicValue;
  private?: Uint8Array;
  diagnostics?: Diagnostic[];
}

/** ImportResourceState request. */
export interface ImportResourceStateRequest {
  type_name: string;
  id: string;
  client_capabilities: ClientCapabilities | null;
}

/** ImportResourceState response. */
export interface ImportResourceStateResponse {
  imported_resources?: { type_name: string; state: DynamicValue; private?: Uint8Array }[];
  diagnostics?: Diagnostic[];
}

/** ReadDataSource request. */
export interface ReadDataSourceRequest {
  type_name: string;
  config: DynamicValue | null;
  provider_meta: DynamicValue | null;
  client_capabilities: ClientCapabilities | null;
}

/** ReadDataSource response. */
export interface ReadDataSourceResponse {
  state?: DynamicValue;
  diagnostics?: Diagnostic[];
}

/** GetFunctions response. */
export interface GetFunctionsResponse {
  functions?: Record<string, FunctionDefinition>;
  diagnostics?: Diagnostic[];
}

/** CallFunction request: the function's name (without `provider::NAME::`) and its arguments, in order. */
export interface CallFunctionRequest {
  name: string;
  arguments: DynamicValue[];
}

/** CallFunction response: a result, or an error. */
export interface CallFunctionResponse {
  result?: DynamicValue;
  error?: FunctionError;
}

/** ValidateEphemeralResourceConfig request. */
export interface ValidateEphemeralResourceConfigRequest {
  type_name: string;
  config: DynamicValue | null;
}

/** A point in time (google.protobuf.Timestamp). */
export interface Timestamp {
  seconds: number;
  nanos: number;
}

/**
 * OpenEphemeralResource request: Terraform sends it at plan and at apply, with a wholly known configuration (it does
 * not open a resource whose configuration is still unknown), and keeps the result only in memory.
 */
export interface OpenEphemeralResourceRequest {
  type_name: string;
  config: DynamicValue | null;
  client_capabilities: ClientCapabilities | null;
}

/** OpenEphemeralResource response. */
export interface OpenEphemeralResourceResponse {
  diagnostics?: Diagnostic[];
  /** When Terraform should call RenewEphemeralResource (unset: never). */
  renew_at?: Timestamp;
  result?: DynamicValue;
  /** Handed back to Renew and Close; never stored. */
  private?: Uint8Array;
}

/** RenewEphemeralResource request. */
export interface RenewEphemeralResourceRequest {
  type_name: string;
  private?: Uint8Array;
}

/** RenewEphemeralResource response. */
export interface RenewEphemeralResourceResponse {
  diagnostics?: Diagnostic[];
  renew_at?: Timestamp;
  private?: Uint8Array;
}

/** CloseEphemeralResource request: sent when Terraform no longer needs the value (end of the plan or apply). */
export interface CloseEphemeralResourceRequest {
  type_name: string;
  private?: Uint8Array;
}
