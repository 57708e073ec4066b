/**
 * The web part of the local service: the public explorer (`/explorer/{vnetId}`, with its Etherscan-compatible
 * verification API) and the dashboard (`/dashboard/`). It reaches the service only through the interface the service
 * exports for it (lib/service/web-interface.ts), keeps its own table of verified contracts, and never calls the
 * service's HTTP API. See lib/web/README.md.
 */
import type { FastifyInstance } from "fastify";
import type { ContractVerifier, ServiceForWeb } from "../service/web-interface";
import type { WebContext } from "./context";
import { registerDashboard } from "./dashboard";
import { registerExplorer } from "./explorer";
import { Sessions } from "./dashboard/sessions";
import { registerVerificationApi } from "./verification/api";
import { serviceVerifier } from "./verification/service-verifier";
import { Compilers } from "./verification/compilers";
import { VerifiedContracts } from "./verification/verified-contracts";

/** Largest dashboard form. */
const FORM_BODY_LIMIT = 64 * 1024;

/** What the rest of the service may ask of the web part. */
export interface WebAccess {
  /**
   * A one-time dashboard sign-in link for a user (single use, valid 10 minutes).
   *
   * @example
   * app.web.loginUrl(service.baseUrl, userId) // "http://127.0.0.1:8787/dashboard/login?token=..."
   */
  loginUrl(baseUrl: string, userId: string): string;
  /** The contract verifier, for the service's other verification doors (listen.ts hands it to the service). */
  readonly verifier: ContractVerifier;
}

declare module "fastify" {
  interface FastifyInstance {
    /** The web part (explorer and dashboard). */
    web: WebAccess;
  }
}

/**
 * Registers the explorer and the dashboard on the service app (after its own routes).
 *
 * @example
 * await registerWeb(app, serviceForWeb(store, engine));
 */
export async function registerWeb(app: FastifyInstance, service: ServiceForWeb): Promise<void> {
  const context: WebContext = { service, verified: new VerifiedContracts(service.verifiedContracts), compiler: new Compilers() };
  const sessions = new Sessions(service.signIn);
  app.decorate("web", {
    loginUrl: (baseUrl: string, userId: string) => `${baseUrl}/dashboard/login?token=${sessions.issueLoginToken(userId)}`,
    verifier: serviceVerifier(context, (err) => app.log.error({ err }, "verification failed")),
  } satisfies WebAccess);
  await app.register(
    async (explorer) => {
      registerExplorer(explorer, context);
      await explorer.register(async (api) => registerVerificationApi(api, context));
    },
    { prefix: "/explorer" },
  );
  await app.register(
    async (dashboard) => {
      dashboard.addContentTypeParser(
        "application/x-www-form-urlencoded",
        { parseAs: "string", bodyLimit: FORM_BODY_LIMIT },
        (_request, body, done) => {
          done(null, Object.fromEntries(new URLSearchParams(body as string)));
        },
      );
      registerDashboard(dashboard, context, sessions);
    },
    { prefix: "/dashboard" },
  );
  app.addHook("onClose", async () => context.compiler.close());
}
