/**
 * Acceptance: chainform_environment and the data sources through real terraform and the offline mirror, against
 * the local service. One step table per working directory: create a 3-network environment with a bridge and
 * prefunded accounts, plan empty, outputs, import by id and by slug with import-verify, a chain_id change that
 * plans a replacement naming the attribute, an out-of-band delete that plans a re-create, every data source,
 * destroy; and in a second directory, a taken slug: a warning at plan, an error at apply, both with the import
 * command.
 */
import type { Client } from "../lib/client";
import { acceptance, PROVIDER_BLOCK, providerEnv, type Acceptance, type StepResult } from "./helpers/acceptance";
import { clientFor, startTestService, type TestService } from "./helpers/service";
import type { PlannedChange } from "./helpers/terraform";

const MIXED_CASE = "0xaBCdEf0000000000000000000000000000000001"; // a valid EIP-55 checksum

const environmentConfig = ({ chainId = 73571 }: { chainId?: number } = {}) => `${PROVIDER_BLOCK}
provider "chainform" {}

resource "chainform_environment" "ci" {
  display_name = "Acceptance CI"
  slug         = "acc-ci"

  network_config {
    network_id = "1"
    chain_id   = ${chainId}
    explorer {
      enabled                 = true
      verification_visibility = "abi"
    }
    account {
      address = "${MIXED_CASE}"
      balance = "100ether"
    }
    account {
      address = "0x2222222222222222222222222222222222222222"
      balance = "0x3635C9ADC5DEA00000"
    }
  }

  network_config {
    network_id = "8453"
    chain_id   = 84530
    account {
      address = "0x2222222222222222222222222222222222222222"
      balance = "5gwei"
    }
  }

  network_config {
    network_id = "42161"
  }

  bridge {
    enabled       = true
    relay_mode    = "delayedRelay"
    delay_seconds = 30
  }
}

output "public_rpc_urls" {
  value = chainform_environment.ci.public_rpc_urls
}

output "admin_rpc_urls" {
  value     = chainform_environment.ci.admin_rpc_urls
  sensitive = true
}

output "chain_ids" {
  value = { for v in chainform_environment.ci.vnets : v.network_id => v.chain_id }
}
`;

const dataSources = `
data "chainform_supported_networks" "all" {}

data "chainform_supported_networks" "vnets" {
  feature = "virtual_testnet"
}

data "chainform_projects" "acme" {}

data "chainform_project" "demo" {
  slug = "demo"
}

data "chainform_delivery_channels" "all" {}

data "chainform_delivery_channels" "email" {
  type = "email"
}

data "chainform_environment" "by_id" {
  id = chainform_environment.ci.id
}

data "chainform_environment" "by_slug" {
  slug       = "acc-ci"
  depends_on = [chainform_environment.ci]
}

data "chainform_environments" "acc" {
  slug_prefix = "acc-"
  depends_on  = [chainform_environment.ci]
}

output "data" {
  value = {
    all_networks      = length(data.chainform_supported_networks.all.networks)
    vnet_networks     = [for n in data.chainform_supported_networks.vnets.networks : n.chain_id]
    vnet_flags        = distinct([for n in data.chainform_supported_networks.vnets.networks : n.virtual_testnet])
    projects          = [for p in data.chainform_projects.acme.projects : p.slug]
    project_id        = data.chainform_project.demo.id
    project_public    = data.chainform_project.demo.public
    channel_types     = sort([for c in data.chainform_delivery_channels.all.channels : c.type])
    email_channels    = [for c in data.chainform_delivery_channels.email.channels : c.type]
    env_by_id_slug    = data.chainform_environment.by_id.slug
    env_by_slug_id    = data.chainform_environment.by_slug.id
    env_by_slug_urls  = data.chainform_environment.by_slug.public_rpc_urls
    environments      = [for e in data.chainform_environments.acc.environments : e.slug]
  }
}
`;

/** eth_getBalance through a Public RPC URL. */
async function balanceOf(url: string, address: string): Promise<string> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_getBalance", params: [address, "latest"] }),
  });
  return ((await response.json()) as { result: string }).result;
}

const changeOf = (result: StepResult, address = "chainform_environment.ci"): PlannedChange["change"] => {
  const change = result.plan?.resource_changes?.find((c) => c.address === address)?.change;
  if (!change) throw new Error(`no planned change for ${address}`);
  return change;
};

// Import-verify compares everything but what neither the service's documented answer nor the chain shows, which
// import cannot recover (explorer, accounts, bridge, and what depends on them): the first plan after the import
// takes those from the configuration, in place. Chain ids are compared: import reads them from each chain.
const NOT_RECOVERABLE = Object.fromEntries(
  [0, 1, 2]
    .flatMap((i) => [`network_config.${i}.explorer.*`, `network_config.${i}.account.*`, `vnets.${i}.bridge_address`])
    .concat(["bridge.*"])
    .map((path) => [path, true as const]),
);

describe("chainform_environment through terraform", () => {
  let service: TestService;
  let client: Client;
  let run: Acceptance;
  let other: Acceptance | undefined;
  let id = "";

  beforeAll(async () => {
    service = await startTestService();
    client = clientFor(service);
    run = await acceptance({ env: providerEnv(service) });
  }, 60_000);

  afterAll(async () => {
    await run?.tf.run("destroy", "-auto-approve", "-input=false");
    run?.dispose();
    other?.dispose();
    await client?.close();
    await service?.close();
  }, 60_000);

  test("lifecycle: create, empty plan, outputs, import by id and slug, replacement, out-of-band delete, data sources, destroy", async () => {
    await run.steps([
      {
        name: "create a 3-network environment with a bridge and prefunded accounts",
        config: environmentConfig(),
        command: "apply",
        async check(ctx) {
          const env = await ctx.resource("chainform_environment.ci");
          id = env.id as string;
          expect(env).toMatchObject({
            display_name: "Acceptance CI",
            slug: "acc-ci",
            bridge: [{ enabled: true, relay_mode: "delayedRelay", delay_seconds: 30 }],
          });
          const networks = env.network_config as {
            network_id: string;
            block_number: string;
            account: { address: string; balance: string }[];
          }[];
          expect(networks.map((n) => n.network_id)).toEqual(["1", "8453", "42161"]);
          // State keeps the configuration's spelling; the service holds canonical hex.
          expect(networks[0]!.account).toEqual([
            { address: MIXED_CASE, balance: "100ether" },
            { address: "0x2222222222222222222222222222222222222222", balance: "0x3635C9ADC5DEA00000" },
          ]);
          expect(networks[2]!.block_number).toMatch(/^0x[0-9a-f]+$/);
          // The service holds canonical hex wei: the chains answer with the funded balances.
          const publicUrls = env.public_rpc_urls as Record<string, string>;
          expect(await balanceOf(publicUrls["1"]!, MIXED_CASE)).toBe("0x56bc75e2d63100000");
          expect(await balanceOf(publicUrls["1"]!, "0x2222222222222222222222222222222222222222")).toBe("0x3635c9adc5dea00000");
          expect(await balanceOf(publicUrls["8453"]!, "0x2222222222222222222222222222222222222222")).toBe("0x12a05f200");
          // The documented answer only: none of our former extras.
          const remote = (await client.getEnvironment({ environmentId: id })) as unknown as Record<string, unknown>;
          expect(Object.keys(remote).sort()).toEqual(["active_instance", "created_at", "display_name", "id", "networks", "slug"]);
          expect(env.vnets).toEqual(
            expect.arrayContaining([
              expect.objectContaining({ network_id: "1", chain_id: "73571", bridge_address: "0x00000000000000000000000000000000c4a1b71d" }),
            ]),
          );
          // The vnets' admin URL is sensitive on its own; the rest of each vnet is not.
          const [resource] = (await ctx.state()).filter((r) => r.address === "chainform_environment.ci");
          expect(resource!.sensitive_values).toMatchObject({
            admin_rpc_urls: true,
            vnets: [{ admin_rpc_url: true }, { admin_rpc_url: true }, { admin_rpc_url: true }],
          });
        },
      },
      { name: "plan is empty", command: "plan", expectNoChanges: true },
      {
        name: "outputs carry the RPC URLs",
        command: "refresh",
        async check(ctx) {
          const outputs = await ctx.outputs();
          const publicUrls = outputs.public_rpc_urls!.value as Record<string, string>;
          expect(Object.keys(publicUrls).sort()).toEqual(["1", "42161", "8453"]);
          for (const url of Object.values(publicUrls)) expect(url).toMatch(new RegExp(`^${service.baseUrl}/rpc/public/`));
          expect(outputs.admin_rpc_urls!.sensitive).toBe(true);
          for (const url of Object.values(outputs.admin_rpc_urls!.value as Record<string, string>)) {
            expect(url).toMatch(new RegExp(`^${service.baseUrl}/rpc/admin/`));
          }
          expect(outputs.chain_ids!.value).toEqual({ "1": "73571", "8453": "84530", "42161": "42161" });
          // The public RPC of network 1 answers with the configured chain id.
          const response = await fetch(publicUrls["1"]!, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
          });
          expect(((await response.json()) as { result: string }).result).toBe(`0x${(73571).toString(16)}`);
        },
      },
      {
        name: "import by id, verify",
        resource: "chainform_environment.ci",
        importId: () => id,
        importVerify: true,
        importVerifyIgnore: NOT_RECOVERABLE,
      },
      {
        name: "after import: what import could not recover comes from the configuration, in place, no replacement",
        command: "plan",
        check(_ctx, result) {
          const change = changeOf(result);
          expect(change.actions).toEqual(["update"]);
          expect(change.replace_paths ?? []).toEqual([]);
        },
      },
      {
        name: "apply the spelling (no API call needed)",
        command: "apply",
        check: async (ctx) => expect((await ctx.resource("chainform_environment.ci")).id).toBe(id),
      },
      { name: "plan is empty again", command: "plan", expectNoChanges: true },
      {
        name: "import by slug, verify",
        resource: "chainform_environment.ci",
        importId: "acc-ci",
        importVerify: true,
        importVerifyIgnore: NOT_RECOVERABLE,
      },
      { name: "apply the spelling after the slug import", command: "apply" },
      {
        name: "change a network's chain_id: plan replaces, naming the attribute",
        config: environmentConfig({ chainId: 73572 }),
        command: "plan",
        check(_ctx, result) {
          const change = changeOf(result);
          expect(change.actions).toEqual(["delete", "create"]);
          expect(change.replace_paths).toEqual([["network_config", 0, "chain_id"]]);
          expect(result.stdout).toMatch(/chain_id\s+= "73571" -> "73572" # forces replacement/);
        },
      },
      {
        name: "delete out of band: plan re-creates",
        config: environmentConfig(),
        before: async () => void (await client.deleteEnvironment({ environmentId: id })),
        command: "plan",
        check(_ctx, result) {
          expect(changeOf(result).actions).toEqual(["create"]);
        },
      },
      {
        name: "apply re-creates it",
        command: "apply",
        async check(ctx) {
          const env = await ctx.resource("chainform_environment.ci");
          expect(env.id).not.toBe(id);
          id = env.id as string;
        },
      },
      { name: "plan is empty after the re-create", command: "plan", expectNoChanges: true },
      {
        name: "every data source reads",
        config: environmentConfig() + dataSources,
        command: "apply",
        async check(ctx) {
          const data = (await ctx.outputs()).data!.value as Record<string, unknown>;
          expect(data.all_networks).toBeGreaterThanOrEqual(10);
          expect(data.vnet_networks).toEqual(expect.arrayContaining(["1", "8453", "42161"]));
          expect(data.vnet_flags).toEqual([true]);
          expect(data.projects).toEqual(expect.arrayContaining(["demo"]));
          expect(data.project_id).toMatch(/^[0-9a-f-]{36}$/);
          expect(data.channel_types).toEqual(["email", "slack"]);
          expect(data.email_channels).toEqual(["email"]);
          expect(data.env_by_id_slug).toBe("acc-ci");
          expect(data.env_by_slug_id).toBe(id);
          expect(Object.keys(data.env_by_slug_urls as object).sort()).toEqual(["1", "42161", "8453"]);
          expect(data.environments).toEqual(["acc-ci"]);
        },
      },
      { name: "plan with the data sources is empty", command: "plan", expectNoChanges: true },
    ]);

    // A second working directory that declares the same slug: the plan warns, the apply fails with the import command.
    other = await acceptance({ env: providerEnv(service) });
    const twin = `${PROVIDER_BLOCK}
provider "chainform" {}

resource "chainform_environment" "twin" {
  display_name = "Twin"
  slug         = "acc-ci"
  network_config {
    network_id = "1"
  }
}
`;
    await other.steps([
      {
        name: "slug already taken: the plan warns with the import command",
        config: twin,
        command: "plan",
        check(_ctx, result) {
          const output = (result.stdout + result.stderr).replace(/\s+/g, " ");
          expect(output).toMatch(new RegExp(`already has environment ${id} with slug "acc-ci"[\\s\\S]*terraform import <address> ${id}`));
          expect(result.stdout + result.stderr).toMatch(/with chainform_environment\.twin/);
        },
      },
      {
        name: "slug already taken: apply fails with the import command",
        command: "apply",
        expectError: new RegExp(
          `already has environment ${id} with slug "acc-ci"[\\s\\S]*terraform import <address> ${id}[\\s\\S]*chainform environments`,
        ),
      },
      {
        name: "a slug derived from display_name is checked too",
        config: twin.replace('display_name = "Twin"\n  slug         = "acc-ci"', 'display_name = "ACC CI"'),
        command: "plan",
        check: (_ctx, result) => expect(result.stdout + result.stderr).toMatch(/An environment with this slug already exists/),
      },
      {
        name: "import of an unknown id says a slug works too",
        resource: "chainform_environment.twin",
        importId: "00000000-0000-4000-8000-000000000000",
        expectError: /no environment with id 00000000-0000-4000-8000-000000000000[\s\S]*or its slug/,
      },
      {
        name: "import of an unknown slug",
        resource: "chainform_environment.twin",
        importId: "no-such-env",
        expectError: /no environment with slug "no-such-env"/,
      },
    ]);

    await run.steps([
      {
        name: "destroy",
        command: "destroy",
        async check(ctx) {
          expect(await ctx.state()).toEqual([]);
          await expect(client.getEnvironment({ environmentId: id })).rejects.toMatchObject({ status: 404 });
        },
      },
    ]);
  }, 170_000);
});
