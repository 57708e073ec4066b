/**
 * The projects `chainform init` writes: a CDK Terrain app (default), a CDKTF app, or a plain Terraform
 * configuration, each with its package.json, .gitignore and a GitHub Actions workflow. Pure functions of the
 * template, the project name and the chainform dependency (lib/cli/install-source.ts), so a unit test can read
 * every file.
 */

/** The templates `chainform init --template` offers; the first is the default. */
export const INIT_TEMPLATES = ["cdktn", "cdktf", "hcl"] as const;
/** One of {@link INIT_TEMPLATES}. */
export type InitTemplate = (typeof INIT_TEMPLATES)[number];

/**
 * npm's `allowScripts` for the generated project: the install scripts of chainform's dependencies that chainform
 * does not need, denied, so that `npm install --strict-allow-scripts` (and npm's next major, which refuses scripts
 * nobody approved) installs the project. `@foundry-rs/anvil`'s script downloads anvil when its platform package
 * (an optional dependency) was left out; chainform uses the platform package. esbuild's (under tsx) swaps its JS
 * launcher for the platform binary: a speed-up only. docs/installing.md "Install scripts" says more.
 */
export const DENIED_INSTALL_SCRIPTS: Readonly<Record<string, false>> = { "@foundry-rs/anvil": false, esbuild: false };

/** The framework dependencies of a CDK template: the ranges chainform's peer dependencies accept. */
const FRAMEWORKS = {
  // cdktn 0.24 requires constructs >=10.6.0 <10.8.0.
  cdktn: { framework: "^0.24.0", constructs: ">=10.6.0 <10.8.0" },
  cdktf: { framework: "^0.21.0", constructs: "^10.4.2" },
} as const;

/** A project name usable in a slug: lowercase letters, digits and single dashes (`my_App` -> `my-app`). */
export function projectSlug(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return slug || "app";
}

/** What init found in the project that changes the files it writes. */
export interface InitFilesOptions {
  /**
   * The project has a tsconfig.json of its own, whose `include` may not hold main.ts: the typecheck script then uses
   * a tsconfig of chainform's beside it ({@link CHAINFORM_TSCONFIG}), which holds main.ts and nothing else.
   * @default false
   */
  readonly ownTsconfig?: boolean;
}

/** The tsconfig init writes beside a project's own tsconfig.json, for main.ts alone. */
export const CHAINFORM_TSCONFIG = "tsconfig.chainform.json";

/**
 * The files of a new project, path (relative to the project directory) -> content.
 * @example
 * initFiles("cdktn", "payments", "^0.1.0")["main.ts"] // a CDK Terrain app with one environment
 */
export function initFiles(
  template: InitTemplate,
  name: string,
  chainformDependency: string,
  options: InitFilesOptions = {},
): Record<string, string> {
  const slug = projectSlug(name);
  const tsconfig = options.ownTsconfig ? CHAINFORM_TSCONFIG : "tsconfig.json";
  const files: Record<string, string> = {
    "package.json": packageJson(template, slug, chainformDependency, tsconfig),
    ".gitignore": GITIGNORE,
    ".github/workflows/chainform.yml": workflow(template),
  };
  if (template === "hcl") {
    files["main.tf"] = mainTf(slug);
  } else {
    files["cdktf.json"] = `${JSON.stringify(
      {
        language: "typescript",
        app: "npx tsx main.ts",
        projectId: slug,
        sendCrashReports: "false",
        terraformProviders: [],
        terraformModules: [],
        context: {},
      },
      null,
      2,
    )}\n`;
    files[tsconfig] = TSCONFIG;
    files["main.ts"] = mainTs(template, slug);
  }
  return files;
}

function packageJson(template: InitTemplate, slug: string, chainformDependency: string, tsconfig: string): string {
  const scripts: Record<string, string> = {
    up: "chainform up",
    deploy: "chainform deploy",
    plan: "chainform plan",
    destroy: "chainform destroy",
    outputs: "chainform outputs",
  };
  const dependencies: Record<string, string> = { chainform: chainformDependency };
  let devDependencies: Record<string, string> | undefined;
  if (template !== "hcl") {
    scripts.synth = "tsx main.ts";
    scripts.typecheck = `tsc -p ${tsconfig}`;
    dependencies[template] = FRAMEWORKS[template].framework;
    dependencies.constructs = FRAMEWORKS[template].constructs;
    devDependencies = { "@types/node": "^20.19.0", tsx: "^4.20.0", typescript: "~5.9.0" };
  }
  const manifest = {
    name: slug,
    version: "0.0.0",
    private: true,
    scripts,
    dependencies,
    ...(devDependencies && { devDependencies }),
    allowScripts: DENIED_INSTALL_SCRIPTS,
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

const GITIGNORE = `node_modules/
# synthesized stacks, Terraform's working files and state, chainform's local service data
cdktf.out/
.terraform/
.chainform/
*.tfstate
*.tfstate.backup
*.tfplan
`;

const TSCONFIG = `${JSON.stringify(
  {
    compilerOptions: {
      target: "ES2022",
      lib: ["ES2023"],
      module: "node16",
      moduleResolution: "node16",
      strict: true,
      esModuleInterop: true,
      skipLibCheck: true,
      noEmit: true,
      types: ["node"],
    },
    include: ["main.ts"],
  },
  null,
  2,
)}\n`;

function mainTs(framework: "cdktn" | "cdktf", slug: string): string {
  return `// A throw-away chainform environment: Ethereum mainnet and Base forked with their own chain ids, bridged, and a
// funded deployer. \`npm run up\` runs it against a local service and tears it down; \`npm run deploy\`
// keeps it. In CI, PR_NUMBER names it after the pull request (see .github/workflows/chainform.yml).
import { App, TerraformOutput, TerraformStack } from "${framework}";
import { Construct } from "constructs";
import { Bridge, ChainformProvider, Environment, Network, ether } from "chainform/${framework}";

/** The deployer funded on every network; override with DEPLOYER_ADDRESS. */
const DEPLOYER = process.env.DEPLOYER_ADDRESS ?? "0x1111111111111111111111111111111111111111";

/** Chain ids the forks answer with, distinct from the real networks so that wallets never confuse them. */
const FORKS = [
  { name: "mainnet", networkId: Network.MAINNET, chainId: 73571 },
  { name: "base", networkId: Network.BASE, chainId: 84530 },
] as const;

class EnvironmentStack extends TerraformStack {
  public constructor(scope: Construct, id: string, name: string) {
    super(scope, id);
    new ChainformProvider(this, "chainform"); // configured from the CHAINFORM_* environment variables

    const env = new Environment(this, "environment", {
      displayName: \`${slug} \${name}\`,
      // The slug starts with the pull request, so \`chainform teardown --prefix pr-7-\` finds what pull request 7 left.
      slug: \`\${name}-${slug}\`,
      bridge: Bridge.delayedRelay(30),
    });
    for (const fork of FORKS) {
      env.addNetwork({ networkId: fork.networkId, chainId: fork.chainId, accounts: [{ address: DEPLOYER, balance: ether(100) }] });
      new TerraformOutput(this, \`\${fork.name}_rpc_url\`, { value: env.publicRpcUrl(fork.networkId) });
      new TerraformOutput(this, \`\${fork.name}_admin_rpc_url\`, { value: env.adminRpcUrl(fork.networkId), sensitive: true });
      new TerraformOutput(this, \`\${fork.name}_chain_id\`, { value: env.vnet(fork.networkId).chainId });
    }
  }
}

const pullRequest = (process.env.PR_NUMBER ?? "").trim();
const name = pullRequest ? \`pr-\${pullRequest}\` : "local";
const app = new App();
new EnvironmentStack(app, name, name);
app.synth();
`;
}

function mainTf(slug: string): string {
  return `# A throw-away chainform environment: Ethereum mainnet and Base forked with their own chain ids, bridged, and a
# funded deployer. \`npm run up\` runs it against a local service and tears it down; \`npm run deploy\`
# keeps it. With plain terraform: export TF_CLI_CONFIG_FILE=$(npx --no-install chainform terraformrc), then terraform init/apply.
# The provider reads CHAINFORM_BASE_URL, CHAINFORM_ACCESS_KEY, CHAINFORM_ACCOUNT and CHAINFORM_PROJECT.
terraform {
  required_providers {
    chainform = {
      source = "chainform/chainform"
    }
  }
}

provider "chainform" {}

variable "environment_name" {
  description = "Names the environment; CI sets it to pr-<number> (TF_VAR_environment_name)."
  type        = string
  default     = "local"
}

variable "deployer" {
  description = "Address funded on every network."
  type        = string
  default     = "0x1111111111111111111111111111111111111111"
}

resource "chainform_environment" "this" {
  display_name = "${slug} \${var.environment_name}"
  # Starts with the pull request, so \`chainform teardown --prefix pr-7-\` finds what pull request 7 left.
  slug = "\${var.environment_name}-${slug}"

  network_config {
    network_id = "1"
    chain_id   = 73571
    account {
      address = var.deployer
      balance = "100ether"
    }
  }

  network_config {
    network_id = "8453"
    chain_id   = 84530
    account {
      address = var.deployer
      balance = "100ether"
    }
  }

  bridge {
    enabled       = true
    relay_mode    = "delayedRelay"
    delay_seconds = 30
  }
}

output "mainnet_rpc_url" {
  value = chainform_environment.this.public_rpc_urls["1"]
}

output "mainnet_chain_id" {
  # What the environment answers with (its network_config.chain_id), read from it rather than repeated here.
  value = one([for vnet in chainform_environment.this.vnets : vnet.chain_id if vnet.network_id == "1"])
}

output "base_rpc_url" {
  value = chainform_environment.this.public_rpc_urls["8453"]
}

output "base_chain_id" {
  # What the environment answers with (its network_config.chain_id), read from it rather than repeated here.
  value = one([for vnet in chainform_environment.this.vnets : vnet.chain_id if vnet.network_id == "8453"])
}

output "admin_rpc_urls" {
  value     = chainform_environment.this.admin_rpc_urls
  sensitive = true
}
`;
}

function workflow(template: InitTemplate): string {
  const nameVariable =
    template === "hcl"
      ? `      # Names the environment pr-<number>-...; \`teardown --prefix pr-<number>-\` removes it whatever happened.
      TF_VAR_environment_name: pr-\${{ github.event.number }}`
      : `      # The app names its stack and environment after this: pr-<number>, slug pr-<number>-...
      PR_NUMBER: \${{ github.event.number }}`;
  return `# A chainform environment per pull request: provision it, hand its RPC URLs to the tests, and always tear it down.
# Written by \`chainform init\`. Without the CHAINFORM_BASE_URL secret, the job runs the local chainform service on
# the runner (offline, no account). With the secrets CHAINFORM_BASE_URL and CHAINFORM_ACCESS_KEY and the variables
# CHAINFORM_ACCOUNT and CHAINFORM_PROJECT, it uses that service.
name: chainform environment

on:
  pull_request:

concurrency:
  group: chainform-pr-\${{ github.event.number }}
  cancel-in-progress: false

permissions:
  contents: read

jobs:
  environment:
    runs-on: ubuntu-latest
    timeout-minutes: 20
    env:
${nameVariable}
    steps:
      - uses: actions/checkout@v4

      - uses: actions/setup-node@v4
        with:
          node-version: 24
          cache: npm

      - uses: hashicorp/setup-terraform@v3
        with:
          # The wrapper rewrites terraform's output; chainform parses \`terraform show -json\` and \`output -json\`.
          terraform_wrapper: false

      - run: npm ci

      - name: Deploy the pull request's environment
        # Its post step removes the environment when the job ends, whether the tests passed, failed or were cancelled.
        id: chainform
        uses: chainform/chainform@v0
        with:
          app: .
          slug-prefix: pr-\${{ github.event.number }}-
          base-url: \${{ secrets.CHAINFORM_BASE_URL }}
          access-key: \${{ secrets.CHAINFORM_ACCESS_KEY }}
          account: \${{ vars.CHAINFORM_ACCOUNT }}
          project: \${{ vars.CHAINFORM_PROJECT }}

      - name: Test against the environment
        env:
          MAINNET_RPC_URL: \${{ steps.chainform.outputs.mainnet_rpc_url }}
          MAINNET_CHAIN_ID: \${{ steps.chainform.outputs.mainnet_chain_id }}
          BASE_RPC_URL: \${{ steps.chainform.outputs.base_rpc_url }}
          BASE_CHAIN_ID: \${{ steps.chainform.outputs.base_chain_id }}
        run: |
          # Replace this with your own tests (hardhat, foundry, viem...) reading the *_RPC_URL variables.
          check() {
            answer=$(curl -sf -X POST -H 'content-type: application/json' \\
              --data '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' "$1")
            got=$(node -p "Number(JSON.parse(process.argv[1]).result)" "$answer")
            echo "$1 -> chain id $got (expected $2)"
            [ "$got" = "$2" ]
          }
          check "$MAINNET_RPC_URL" "$MAINNET_CHAIN_ID"
          check "$BASE_RPC_URL" "$BASE_CHAIN_ID"
`;
}
