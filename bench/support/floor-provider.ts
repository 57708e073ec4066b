/**
 * The floor of `bench/provider`: a provider process with chainform's wire layer (handshake, mTLS, HTTP/2 gRPC,
 * protobuf), chainform's schema, and no provider at all behind it. Every RPC answers with what it was given: a plan is
 * the proposed state, a read is the current state, an upgrade hands the stored JSON back, and nothing is decoded,
 * validated or fetched. What a plan costs with it over `terraform_data` is what Terraform's process model and Node.js
 * cost any provider built this way; chainform's own code is the rest of chainform's gap.
 *
 * Built by bench/provider.ts with the provider's own bundler and loader (V8 code cache included). The schema answer
 * is the very bytes chainform sends: the file its build wrote (lib/terraform/provider/schema-file.ts), whose path is
 * in BENCH_FLOOR_SCHEMA.
 */
import { readFileSync } from "node:fs";
import { EncodedResponse } from "../../lib/terraform/protocol/h2-grpc";
import type { ProviderServer } from "../../lib/terraform/protocol/provider-server";
import { servePlugin } from "../../lib/terraform/protocol/serve";

const floor: ProviderServer = {
  async getProviderSchema() {
    // As chainform's lazy server does: the gRPC layer sends an EncodedResponse's bytes as they are.
    return new EncodedResponse(readFileSync(process.env.BENCH_FLOOR_SCHEMA!)) as never;
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
