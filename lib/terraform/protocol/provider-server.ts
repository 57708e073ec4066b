/** The interface between the gRPC layer and whatever implements the provider (normally the framework). */
import type * as m from "./messages";

/** What every handler gets besides its request. */
export interface RequestContext {
  /**
   * Aborted when Terraform sends StopProvider (the user pressed Ctrl-C): long operations should stop waiting and
   * return what they have, with a diagnostic.
   */
  readonly signal: AbortSignal;
}

/**
 * A provider at the protocol level: one async method per tfplugin6 RPC, taking and returning plain message objects
 * (DynamicValues still encoded; decode them against the schema with `decodeDynamicValue`). Every method is
 * optional: the server answers gRPC UNIMPLEMENTED for a missing one, and for RPCs not listed here.
 * StopProvider is handled by the server itself (it aborts {@link RequestContext.signal}).
 */
export interface ProviderServer {
  /** GetMetadata (never called by Terraform 1.11). */
  getMetadata?(request: object, context: RequestContext): Promise<m.GetMetadataResponse>;
  /** GetProviderSchema. */
  getProviderSchema?(request: object, context: RequestContext): Promise<m.GetProviderSchemaResponse>;
  /** ValidateProviderConfig. */
  validateProviderConfig?(request: m.ValidateProviderConfigRequest, context: RequestContext): Promise<m.DiagnosticsResponse>;
  /** ConfigureProvider. */
  configureProvider?(request: m.ConfigureProviderRequest, context: RequestContext): Promise<m.DiagnosticsResponse>;
  /** ValidateResourceConfig. */
  validateResourceConfig?(request: m.ValidateResourceConfigRequest, context: RequestContext): Promise<m.DiagnosticsResponse>;
  /** ValidateDataResourceConfig. */
  validateDataResourceConfig?(request: m.ValidateDataResourceConfigRequest, context: RequestContext): Promise<m.DiagnosticsResponse>;
  /** UpgradeResourceState. */
  upgradeResourceState?(request: m.UpgradeResourceStateRequest, context: RequestContext): Promise<m.UpgradeResourceStateResponse>;
  /** ReadResource. */
  readResource?(request: m.ReadResourceRequest, context: RequestContext): Promise<m.ReadResourceResponse>;
  /** PlanResourceChange. */
  planResourceChange?(request: m.PlanResourceChangeRequest, context: RequestContext): Promise<m.PlanResourceChangeResponse>;
  /** ApplyResourceChange. */
  applyResourceChange?(request: m.ApplyResourceChangeRequest, context: RequestContext): Promise<m.ApplyResourceChangeResponse>;
  /** ImportResourceState. */
  importResourceState?(request: m.ImportResourceStateRequest, context: RequestContext): Promise<m.ImportResourceStateResponse>;
  /** ReadDataSource. */
  readDataSource?(request: m.ReadDataSourceRequest, context: RequestContext): Promise<m.ReadDataSourceResponse>;
  /** GetFunctions. */
  getFunctions?(request: object, context: RequestContext): Promise<m.GetFunctionsResponse>;
  /** CallFunction (on a provider that may not be configured: functions must not need the provider's settings). */
  callFunction?(request: m.CallFunctionRequest, context: RequestContext): Promise<m.CallFunctionResponse>;
  /** ValidateEphemeralResourceConfig. */
  validateEphemeralResourceConfig?(
    request: m.ValidateEphemeralResourceConfigRequest,
    context: RequestContext,
  ): Promise<m.DiagnosticsResponse>;
  /** OpenEphemeralResource. */
  openEphemeralResource?(request: m.OpenEphemeralResourceRequest, context: RequestContext): Promise<m.OpenEphemeralResourceResponse>;
  /** RenewEphemeralResource. */
  renewEphemeralResource?(request: m.RenewEphemeralResourceRequest, context: RequestContext): Promise<m.RenewEphemeralResourceResponse>;
  /** CloseEphemeralResource. */
  closeEphemeralResource?(request: m.CloseEphemeralResourceRequest, context: RequestContext): Promise<m.DiagnosticsResponse>;
}

/** The tfplugin6 RPC name served by each {@link ProviderServer} method. */
export const rpcNames = {
  getMetadata: "GetMetadata",
  getProviderSchema: "GetProviderSchema",
  validateProviderConfig: "ValidateProviderConfig",
  configureProvider: "ConfigureProvider",
  validateResourceConfig: "ValidateResourceConfig",
  validateDataResourceConfig: "ValidateDataResourceConfig",
  upgradeResourceState: "UpgradeResourceState",
  readResource: "ReadResource",
  planResourceChange: "PlanResourceChange",
  applyResourceChange: "ApplyResourceChange",
  importResourceState: "ImportResourceState",
  readDataSource: "ReadDataSource",
  getFunctions: "GetFunctions",
  callFunction: "CallFunction",
  validateEphemeralResourceConfig: "ValidateEphemeralResourceConfig",
  openEphemeralResource: "OpenEphemeralResource",
  renewEphemeralResource: "RenewEphemeralResource",
  closeEphemeralResource: "CloseEphemeralResource",
} as const satisfies Record<keyof ProviderServer, string>;
