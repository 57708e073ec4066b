import "cdktf/lib/testing/adapters/jest"; // the matchers' types
import { TerraformOutput, TerraformStack, TerraformVariable, Testing, Token } from "cdktf";
import * as dataProject from "./generated/data-chainform-project";
import * as dataSupportedNetworks from "./generated/data-chainform-supported-networks";
import { Project, SupportedNetworks } from "./lookups";
import { ChainformProvider } from "./provider";

Testing.setupJest();

type Output = { value: unknown };
const outputs = (synthesized: string) => (JSON.parse(synthesized) as { output: Record<string, Output> }).output;

describe("SupportedNetworks", () => {
  it("reads every supported network by default", () => {
    // GIVEN a lookup without a filter
    const synthesized = Testing.synthScope((scope) => {
      new SupportedNetworks(scope, "all");
    });
    // THEN it is a chainform_supported_networks data source without feature
    expect(synthesized).toHaveDataSource(dataSupportedNetworks.DataChainformSupportedNetworks);
    const [config] = Object.values(JSON.parse(synthesized).data.chainform_supported_networks) as object[];
    expect(config).toEqual({});
  });

  it("filters by feature and gives the network ids as a token list", () => {
    // GIVEN networks that support virtual testnets
    const stack = new TerraformStack(Testing.app(), "stack");
    new ChainformProvider(stack, "chainform");
    const forkable = SupportedNetworks.withFeature(stack, "forkable", "virtual_testnet");
    new TerraformOutput(stack, "ids", { value: forkable.networkIds });
    new TerraformOutput(stack, "first_name", { value: forkable.networks.get(0).networkName });
    // THEN the filter is passed and the outputs reference the data source
    const synthesized = Testing.synth(stack, true);
    expect(synthesized).toHaveDataSourceWithProperties(dataSupportedNetworks.DataChainformSupportedNetworks, {
      feature: "virtual_testnet",
    });
    const out = outputs(synthesized);
    expect(out.ids.value).toMatch(
      /^\$\{\[ for key, val in data\.chainform_supported_networks\.forkable_[A-Za-z0-9]+\.networks: val\.chain_id\]\}$/,
    );
    expect(out.first_name.value).toMatch(/^\$\{data\.chainform_supported_networks\.forkable_[A-Za-z0-9]+\.networks\[0\]\.network_name\}$/);
    expect(forkable.node.defaultChild).toBe(forkable.resource);
  });

  it("rejects an unknown feature, and passes a token through", () => {
    const stack = new TerraformStack(Testing.app(), "stack");
    expect(() => SupportedNetworks.withFeature(stack, "bad", "teleport" as never)).toThrow(
      /\[stack\/bad\] feature "teleport" must be one of "virtual_testnet", "node", "explorer", "simulator", "monitoring"/,
    );
    const feature = new TerraformVariable(stack, "feature", { type: "string" }).stringValue;
    expect(() => new SupportedNetworks(stack, "token", { feature: feature as never })).not.toThrow();
  });
});

describe("Project", () => {
  it("reads a project by slug, in the provider's account or another", () => {
    // GIVEN lookups with and without an account
    const stack = new TerraformStack(Testing.app(), "stack");
    new ChainformProvider(stack, "chainform");
    const demo = Project.fromSlug(stack, "demo", "demo", { accountSlug: "acme" });
    const sandbox = new Project(stack, "sandbox", { slug: "sandbox" });
    new TerraformOutput(stack, "demo_attributes", {
      value: [demo.projectId, demo.projectName, demo.ownerId, demo.createdAt, Token.asString(demo.numberOfUsers)],
    });
    // THEN each is a chainform_project data source and the getters are references to it
    const synthesized = Testing.synth(stack, true);
    expect(synthesized).toHaveDataSourceWithProperties(dataProject.DataChainformProject, { slug: "demo", account_slug: "acme" });
    expect(synthesized).toHaveDataSourceWithProperties(dataProject.DataChainformProject, { slug: "sandbox" });
    const [id, name, owner, created, users] = outputs(synthesized).demo_attributes.value as string[];
    expect(id).toMatch(/^\$\{data\.chainform_project\.demo_[A-Za-z0-9]+\.id\}$/);
    expect(name).toMatch(/\.name\}$/);
    expect(owner).toMatch(/\.owner_id\}$/);
    expect(created).toMatch(/\.created_at\}$/);
    expect(users).toMatch(/\.number_of_users\}$/);
    expect(sandbox.node.defaultChild).toBe(sandbox.resource);
  });
});
