/**
 * The floor of `bench/provider`: a provider process with chainform's wire layer (handshake, mTLS, HTTP/2 gRPC,
 * protobuf), chainform's schema, and no provider at all behind it. Every RPC answers with what it was given: a plan is
 * the proposed state, a read is the current state, an upgrade hands the stored JSON back, and nothing is decoded,
 * validated or fetched. What a plan costs with it over `terraform_data` is what Terraform's process model and Node.js
 * cost any provider built this way; chainform's own code is the rest of chainform's gap.
 *
 * Built by bench/provider.ts with the provider's own bundler and loader (V8 code cache included). The schema is the
 * one chainform answers, read from the file in BENCH_FLOOR_SCHEMA (JSON, bytes as {"base64": ...}).
 */
import { readFileSync } from "node:fs";
import type { GetProviderSchemaResponse } from "../../lib/terraform/protocol/messages";
import type { ProviderServer } from "../../lib/terraform/protocol/provider-server";
import { servePlugin } from "../../lib/terraform/protocol/serve";

/** JSON.parse reviver for what {@link schemaToJson} wrote. */
const reviveBytes = (_key: string, value: unknown) =>
  value !== null && typeof value === "object" && "base64" in value ? Buffer.from((value as { base64: string }).base64, "base64") : value;

const floor: ProviderServer = {
  async getProviderSchema() {
    return JSON.parse(readFileSync(process.env.BENCH_FLOOR_SCHEMA!, "utf8"), reviveBytes) as GetProviderSchemaResponse;
  },
  async validateProviderConfig() {
    return {};
  },
  async configureProvider() {
    return {};
  },
  async validateResourceConfig() {
    return {};
  },
  async upgradeResourceState(request) {
    return request.raw_state ? { upgraded_state: { json: request.raw_state.json } } : {};
  },
  async readResource(request) {
    return { ...(request.current_state ? { new_state: request.current_state } : {}), private: request.private };
  },
  async planResourceChange(request) {
    return { ...(request.proposed_new_state ? { planned_state: request.proposed_new_state } : {}), planned_private: request.prior_private };
  },
};

void servePlugin(floor);
