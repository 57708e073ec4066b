/**
 * The dashboard (`/dashboard/`) for a signed-in user, with the API's access rules (lib/service/auth/access.ts, which
 * lib/service/web-interface.ts offers): projects, environments (Admin RPC URLs only on an explicit reveal, and only
 * for users who may write), an environment's transactions across its vnets with the API's filters, saved
 * simulations, delivery channels and Web3 Actions. Changes (delete an environment, stop an action, reveal, sign out)
 * are POSTs from the dashboard's own origin carrying the CSRF token (`sessions.ts` holds that rule); deleting asks
 * first on a page of its own.
 *
 * The routes live by page (`sign-in.ts`, `projects.ts`, `environments.ts`, `transactions.ts`), the HTML frame in
 * `layout.ts`; this file registers them and renders every refusal and error as a page.
 */
import type { FastifyInstance } from "fastify";
import { ServiceError } from "../../service/web-interface";
import { sendPage, type WebContext } from "../context";
import { simplePage } from "../explorer";
import { html } from "../html";
import { registerEnvironments } from "./environments";
import { dashboardPage, signInPage } from "./layout";
import { registerProjects } from "./projects";
import { ChangeRefused, SignInRequired, type Sessions } from "./sessions";
import { registerSignIn } from "./sign-in";
import { registerTransactions } from "./transactions";

/** Registers the dashboard (the plugin is registered with prefix `/dashboard`). */
export function registerDashboard(app: FastifyInstance, context: WebContext, sessions: Sessions): void {
  registerSignIn(app, sessions);
  registerProjects(app, context, sessions);
  registerEnvironments(app, context, sessions);
  registerTransactions(app, context, sessions);

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof SignInRequired) return sendPage(reply, 401, signInPage(error.message));
    if (error instanceof ChangeRefused) return sendPage(reply, 403, simplePage("Refused", error.message));
    const session = sessions.of(request);
    const render = (status: number, title: string, message: string) =>
      sendPage(
        reply,
        status,
        session
          ? dashboardPage(session, title, html`<h1>${title}</h1><div class="card error"><p>${message}</p></div>`)
          : simplePage(title, message),
      );
    if (error instanceof ServiceError)
      return render(error.status, error.status === 404 ? "Not found" : error.status === 403 ? "Not allowed" : "Bad request", error.message);
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) return render(status, "Bad request", (error as Error).message);
    const chainStatus = (error as { status?: number }).status;
    if (chainStatus && chainStatus >= 400) return render(chainStatus, "The chain is not available", (error as Error).message);
    request.log.error({ err: error }, "dashboard page failed");
    return render(500, "Something went wrong", "The page could not be built; the service log has the details.");
  });
  app.setNotFoundHandler((_request, reply) => sendPage(reply, 404, simplePage("Not found", "There is no such dashboard page.")));
}
