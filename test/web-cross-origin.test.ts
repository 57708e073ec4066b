/**
 * The dashboard against a page of another origin on the same host, in a real browser (Chromium through
 * playwright-core). A page served from another port of 127.0.0.1 is same-site to the dashboard, so the SameSite=Strict
 * session cookie goes along with its requests: the dashboard must neither let it read a page (no credentialed CORS)
 * nor accept its POSTs (Origin / Sec-Fetch-Site check), whatever token it holds, and a cross-origin sign-in form must
 * not sign the browser in (login CSRF).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchBrowser } from "./helpers/browser";
import { call } from "./helpers/http";
import { startTestService, type TestService } from "./helpers/service";

jest.setTimeout(180_000);

let service: TestService;
let browser: Browser;
let attacker: Server;
let attackerUrl: string;
let environment: { id: string; adminSecret: string };

beforeAll(async () => {
  service = await startTestService();
  browser = await launchBrowser();
  attacker = createServer((_request, response) =>
    response.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>elsewhere</title><p>another origin"),
  );
  await new Promise<void>((resolve) => attacker.listen(0, "127.0.0.1", resolve));
  attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`;
  const created = await call(service, "POST", "/public/v1/account/acme/project/demo/environments", {
    as: "alice",
    body: { display_name: "Target", network_configs: [{ network_id: "1" }] },
  });
  expect(created.status).toBe(200);
  const admin = (created.body.active_instance.vnets[0].rpcs as { name: string; url: string }[]).find((r) => r.name === "Admin RPC")!.url;
  environment = { id: created.body.id, adminSecret: admin.slice(admin.lastIndexOf("/") + 1) };
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => attacker?.close(resolve));
  await service?.close();
});

/** A browser signed in as alice, on the attacker's page. */
async function victim(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(service.dashboardLink("alice"));
  expect(new URL(page.url()).pathname).toBe("/dashboard/");
  await page.goto(attackerUrl);
  return { context, page };
}

/** Submits a form from the page's current origin (a navigation: no CORS involved); answers the response. */
async function submitForm(page: Page, action: string, fields: Record<string, string>) {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input name="${name}" value="${value}">`)
    .join("");
  await page.setContent(`<form method="post" action="${action}">${inputs}</form>`);
  const [answer] = await Promise.all([page.waitForNavigation(), page.evaluate("document.forms[0].submit()")]);
  return answer;
}

const envPath = () => `/dashboard/acme/demo/environments/${environment.id}`;

test("a page on another port reads no dashboard page and reveals no Admin RPC URL", async () => {
  const { context, page } = await victim();
  const outcome = await page.evaluate(
    async ({ envUrl }) => {
      const steps: string[] = [];
      try {
        const text = await (await fetch(envUrl, { credentials: "include" })).text();
        steps.push(`read ${text.length} characters`);
        const csrf = /name="csrf" value="([^"]+)"/.exec(text)?.[1] ?? "";
        const revealed = await fetch(`${envUrl}/reveal`, { method: "POST", credentials: "include", body: new URLSearchParams({ csrf }) });
        steps.push(await revealed.text());
      } catch (error) {
        steps.push(`refused: ${String(error)}`);
      }
      return steps;
    },
    { envUrl: `${service.baseUrl}${envPath()}` },
  );
  expect(outcome.join("\n")).not.toContain("/rpc/admin/");
  expect(outcome.join("\n")).not.toContain(environment.adminSecret);
  expect(outcome[0]).toMatch(/^refused/);
  await context.close();
});

test("a POST from another origin changes nothing even with the right CSRF token", async () => {
  const { context, page } = await victim();
  // The worst case: the token leaked to the other page somehow. The Origin check alone must refuse.
  const own = await context.newPage();
  await own.goto(`${service.baseUrl}${envPath()}`);
  const csrf = (await own.locator("input[name=csrf]").first().getAttribute("value"))!;
  await own.close();
  const opaque = await page.evaluate(
    async ({ deleteUrl, csrf }) => {
      const response = await fetch(deleteUrl, {
        method: "POST",
        credentials: "include",
        mode: "no-cors",
        body: new URLSearchParams({ csrf }),
      });
      return response.type;
    },
    { deleteUrl: `${service.baseUrl}${envPath()}/delete`, csrf },
  );
  expect(opaque).toBe("opaque");
  // A form submission (a navigation, which needs no CORS) is refused as well, and says why.
  const answer = await submitForm(page, `${service.baseUrl}${envPath()}/reveal`, { csrf });
  expect(answer!.status()).toBe(403);
  const body = await page.content();
  expect(body).not.toContain(environment.adminSecret);
  expect(body).toContain("another site");
  expect((await call(service, "GET", `/public/v1/account/acme/project/demo/environments/${environment.id}`, { as: "alice" })).status).toBe(
    200,
  );
  await context.close();
});

test("a cross-origin sign-in form does not sign the browser in (login CSRF)", async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(attackerUrl);
  const answer = await submitForm(page, `${service.baseUrl}/dashboard/login`, { access_key: service.keys.bob });
  expect(answer!.status()).toBe(403);
  expect((await context.cookies()).filter((c) => c.name === "chainform_session")).toEqual([]);
  const home = await page.goto(`${service.baseUrl}/dashboard/acme/demo`);
  expect(home!.status()).toBe(401);
  // The dashboard's own sign-in form still works.
  await page.goto(`${service.baseUrl}/dashboard/`);
  await page.fill("input[name=access_key]", service.keys.bob);
  await Promise.all([page.waitForNavigation(), page.click("button[type=submit]")]);
  await expect(page.locator("header").textContent()).resolves.toContain("(read-only)");
  await context.close();
});

test("dashboard answers carry no CORS headers, the API keeps them", async () => {
  const origin = attackerUrl.replace(/\/$/, "");
  for (const path of ["/dashboard/", envPath(), "/dashboard/nothing"]) {
    for (const method of ["GET", "OPTIONS"]) {
      const result = await call(service, method, path, { headers: { origin, "access-control-request-method": "POST" } });
      expect([
        path,
        method,
        result.headers.get("access-control-allow-origin"),
        result.headers.get("access-control-allow-credentials"),
      ]).toEqual([path, method, null, null]);
    }
  }
  const api = await call(service, "GET", "/v1/account/acme/projects", { as: "alice", headers: { origin } });
  expect(api.headers.get("access-control-allow-origin")).toBe(origin);
});
