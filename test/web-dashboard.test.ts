/**
 * The dashboard in a real browser (Chromium through playwright-core) against the local service with anvil chains:
 * sign-in by one-time link and by access key, an environment's transactions (one with nested calls, one reverted)
 * and a saved simulation, each with its trace; Admin RPC URLs only on reveal and only for writers; a read-only
 * user (bob) sees no Admin RPC URL and no delete button; a change without the CSRF token changes nothing; delete
 * asks first. Takes docs/dashboard.png when it is missing or CHAINFORM_SCREENSHOTS=1.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { loadArtifact } from "../lib/service/chains/evm/artifacts";
import { launchBrowser } from "./helpers/browser";
import { rpc } from "./helpers/http";
import { startTestService, type TestService } from "./helpers/service";
import { encodeFunctionData } from "./helpers/viem";

jest.setTimeout(240_000);

const DEPLOYER = "0x00000000000000000000000000000000000a11ce";
const RECIPIENT = "0x000000000000000000000000000000000000b0b0";
const GAS = "0x1e8480";

let service: TestService;
let browser: Browser;
let environment: { id: string; instanceId: string; vnetId: string; adminRpc: string };
const hashes: { run?: string; fail?: string } = {};

async function api(path: string, init: { method?: string; body?: unknown; user?: string } = {}): Promise<Response> {
  return fetch(`${service.baseUrl}${path}`, {
    method: init.method ?? "GET",
    headers: { ...service.headersOf(init.user ?? "alice"), ...(init.body ? { "content-type": "application/json" } : {}) },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
}

/** Sends a transaction through the Admin RPC (explicit gas, so a reverting one is mined too); returns its receipt. */
async function send(tx: {
  to?: string;
  data: string;
}): Promise<{ transactionHash: string; contractAddress: string | null; status: string }> {
  const hash = await rpc<string>(environment.adminRpc, "eth_sendTransaction", [{ from: DEPLOYER, gas: GAS, ...tx }]);
  for (;;) {
    const receipt = await rpc<{ transactionHash: string; contractAddress: string | null; status: string } | null>(
      environment.adminRpc,
      "eth_getTransactionReceipt",
      [hash],
    );
    if (receipt) return receipt;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function signedIn(username: "alice" | "bob"): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
  const page = await context.newPage();
  await page.goto(service.dashboardLink(username));
  return { context, page };
}

beforeAll(async () => {
  service = await startTestService();
  browser = await launchBrowser();
  const created = await api("/public/v1/account/acme/project/demo/environments", {
    method: "POST",
    body: {
      display_name: "Checkout CI run 42",
      network_configs: [{ network_id: "1", accounts: [{ address: DEPLOYER, balance: "0x56bc75e2d63100000" }] }],
    },
  });
  expect(created.status).toBe(200);
  const body = (await created.json()) as {
    id: string;
    active_instance: { id: string; vnets: { id: string; rpcs: { name: string; url: string }[] }[] };
  };
  const vnet = body.active_instance.vnets[0];
  environment = {
    id: body.id,
    instanceId: body.active_instance.id,
    vnetId: vnet.id,
    adminRpc: vnet.rpcs.find((r) => r.name === "Admin RPC")!.url,
  };

  const [token, logic, probe] = await Promise.all(["ProbeToken", "ProbeLogic", "SimulationProbe"].map(async (name) => loadArtifact(name)));
  const tokenAddress = (await send({ data: token.bytecode })).contractAddress!;
  const logicAddress = (await send({ data: logic.bytecode })).contractAddress!;
  const probeAddress = (await send({ data: probe.bytecode })).contractAddress!;
  await send({ to: tokenAddress, data: encodeFunctionData({ abi: token.abi, functionName: "mint", args: [probeAddress, 1000n] }) });
  const run = await send({
    to: probeAddress,
    data: encodeFunctionData({ abi: probe.abi, functionName: "run", args: [tokenAddress, logicAddress, RECIPIENT, 250n] }),
  });
  const fail = await send({ to: probeAddress, data: encodeFunctionData({ abi: probe.abi, functionName: "fail", args: [] }) });
  expect([run.status, fail.status]).toEqual(["0x1", "0x0"]);
  hashes.run = run.transactionHash;
  hashes.fail = fail.transactionHash;

  const simulated = await api("/v1/account/acme/project/demo/simulate", {
    method: "POST",
    body: { network_id: "1", from: DEPLOYER, to: null, input: token.bytecode, save: true },
  });
  expect(simulated.status).toBe(200);
});

afterAll(async () => {
  await browser?.close();
  await service?.close();
});

test("a one-time link signs in once, with an HttpOnly SameSite=Strict cookie that is not the key", async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const link = service.dashboardLink("alice");
  await page.goto(link);
  expect(new URL(page.url()).pathname).toBe("/dashboard/");
  await expect(page.locator("h1").textContent()).resolves.toBe("Projects");
  await expect(page.locator("body").textContent()).resolves.toContain("Demo");
  const [cookie] = await context.cookies();
  expect(cookie).toMatchObject({ name: "chainform_session", httpOnly: true, sameSite: "Strict", path: "/dashboard" });
  expect(cookie.value).not.toContain(service.keys.alice);

  const again = await (await browser.newContext()).newPage();
  const response = await again.goto(link);
  expect(response!.status()).toBe(401);
  await expect(again.locator("body").textContent()).resolves.toContain("already used or has expired");
  await context.close();
});

test("an access key typed into the form signs in; the key appears in no page", async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${service.baseUrl}/dashboard/`);
  await page.fill("input[name=access_key]", "not-a-key");
  await page.click("button[type=submit]");
  await expect(page.locator(".error").textContent()).resolves.toContain("not valid");
  await page.fill("input[name=access_key]", service.keys.bob);
  await page.click("button[type=submit]");
  expect(new URL(page.url()).pathname).toBe("/dashboard/");
  expect(page.url()).not.toContain(service.keys.bob);
  await expect(page.locator("header").textContent()).resolves.toContain("(read-only)");
  await page.click("text=acme/Demo");
  await page.click("text=Checkout CI run 42");
  const html = await page.content();
  expect(html).not.toContain(service.keys.bob);
  expect(html).not.toContain(service.keys.alice);
  await context.close();
});

test("an environment's transactions: filters, a nested trace and a reverted one with its reason", async () => {
  const { context, page } = await signedIn("alice");
  await page.goto(`${service.baseUrl}/dashboard/acme/demo`);
  await expect(page.locator("text=Checkout CI run 42").count()).resolves.toBe(1);
  await expect(page.locator("body").textContent()).resolves.toContain(`/rpc/public/${environment.vnetId}`);
  await page.click("text=Checkout CI run 42");
  const rows = page.locator("table").last().locator("tbody tr");
  await expect(rows.count()).resolves.toBe(6);

  await page.selectOption("select[name=status]", "failed");
  await page.click("text=Filter");
  expect(page.url()).toContain("status=failed");
  await expect(rows.count()).resolves.toBe(1);
  await page.click(`a[href$="/tx/${hashes.fail}"]`);
  await expect(page.locator("dl").first().textContent()).resolves.toMatch(/reverted[\s\S]*SimulationProbe: failed on purpose/);
  await expect(page.locator("details.frame.failed > summary").first().textContent()).resolves.toContain(
    "reverted: SimulationProbe: failed on purpose",
  );

  await page.goto(`${service.baseUrl}/dashboard/acme/demo/environments/${environment.id}/tx/${hashes.run}`);
  const frames = page.locator("details.frame > summary");
  await expect(frames.count()).resolves.toBe(3);
  const summaries = await frames.allTextContents();
  expect(summaries[0]).toMatch(/^CALL/);
  expect(summaries[1]).toMatch(/CALL[\s\S]*transfer\(to: 0x000000000000000000000000000000000000b0b0, value: 250\)/);
  expect(summaries[2]).toMatch(/DELEGATECALL/);
  await expect(page.locator("body").textContent()).resolves.toContain("Transfer(from:");
  await page.click("details.frame > summary >> nth=0"); // the tree folds
  await expect(page.locator("details.frame >> nth=0").getAttribute("open")).resolves.toBeNull();

  const bad = await page.goto(`${service.baseUrl}/dashboard/acme/demo/environments/${environment.id}?from=0x12`);
  expect(bad!.status()).toBe(400);
  await expect(page.locator(".error").textContent()).resolves.toContain("from must be an address");
  await context.close();
});

test("a saved simulation shows the same trace view", async () => {
  const { context, page } = await signedIn("alice");
  await page.goto(`${service.baseUrl}/dashboard/acme/demo`);
  await page.click('a[href*="/simulations/"]');
  await expect(page.locator("h1").textContent()).resolves.toBe("Simulation");
  await expect(page.locator("dl").first().textContent()).resolves.toContain("success");
  await expect(page.locator("details.frame > summary").first().textContent()).resolves.toMatch(/CREATE[\s\S]*new contract/);
  await context.close();
});

test("Admin RPC URLs only on reveal, for writers; read-only bob sees no Admin RPC URL and no delete button", async () => {
  const { context, page } = await signedIn("alice");
  const envUrl = `${service.baseUrl}/dashboard/acme/demo/environments/${environment.id}`;
  await page.goto(envUrl);
  await expect(page.locator("body").textContent()).resolves.not.toContain("/rpc/admin/");
  await page.click("text=Reveal Admin RPC URLs");
  await expect(page.locator(".admin-rpc").textContent()).resolves.toBe(environment.adminRpc);
  expect(page.url()).not.toContain("/rpc/admin/");
  await page.setViewportSize({ width: 375, height: 700 }); // a phone: nothing wider than the screen
  expect(await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")).toBe(true);
  if (process.env.CHAINFORM_SCREENSHOTS === "1" || !existsSync(join(__dirname, "..", "docs", "dashboard.png"))) {
    await page.goto(envUrl);
    await page.setViewportSize({ width: 900, height: 900 });
    await page.screenshot({ path: join(__dirname, "..", "docs", "dashboard.png") });
  }
  await context.close();

  const bob = await signedIn("bob");
  await bob.page.goto(envUrl);
  await expect(bob.page.locator("text=Reveal Admin RPC URLs").count()).resolves.toBe(0);
  await expect(bob.page.locator("#delete").count()).resolves.toBe(0);
  await expect(bob.page.locator("body").textContent()).resolves.not.toContain("/rpc/admin/");
  const csrf = await bob.page.locator("input[name=csrf]").first().getAttribute("value");
  const reveal = await bob.page.request.post(`${envUrl}/reveal`, { form: { csrf: csrf! } });
  expect(reveal.status()).toBe(403);
  expect(await reveal.text()).not.toContain("/rpc/admin/");
  await bob.context.close();
});

test("a change without the CSRF token changes nothing; delete asks first", async () => {
  const { context, page } = await signedIn("alice");
  const envUrl = `${service.baseUrl}/dashboard/acme/demo/environments/${environment.id}`;
  for (const form of [{}, { csrf: "forged" }] as Record<string, string>[]) {
    const response = await page.request.post(`${envUrl}/delete`, { form });
    expect(response.status()).toBe(403);
    expect(await response.text()).toContain("nothing was changed");
  }
  const stopped = await page.request.post(`${service.baseUrl}/dashboard/acme/demo/actions/x/stop`, { form: {} });
  expect(stopped.status()).toBe(403);
  expect((await api(`/public/v1/account/acme/project/demo/environments/${environment.id}`)).status).toBe(200);

  await page.goto(envUrl);
  await page.click("#delete");
  await expect(page.locator("h1").textContent()).resolves.toBe("Delete Checkout CI run 42?");
  expect((await api(`/public/v1/account/acme/project/demo/environments/${environment.id}`)).status).toBe(200);
  await page.click("#confirm-delete");
  expect(new URL(page.url()).pathname).toBe("/dashboard/acme/demo");
  await expect(page.locator("body").textContent()).resolves.not.toContain("Checkout CI run 42");
  expect((await api(`/public/v1/account/acme/project/demo/environments/${environment.id}`)).status).toBe(404);

  await page.click("text=Sign out");
  const after = await page.goto(`${service.baseUrl}/dashboard/acme/demo`);
  expect(after!.status()).toBe(401);
  await context.close();
});
