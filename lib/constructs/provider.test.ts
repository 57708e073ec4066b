import "cdktf/lib/testing/adapters/jest"; // the matchers' types
import { Annotations, TerraformStack, TerraformVariable, Testing } from "cdktf";
import * as provider from "./generated/provider";
import { ChainformProvider, type ChainformProviderProps } from "./provider";

Testing.setupJest();

const NO_CREDENTIAL_ENV = [
  "CHAINFORM_BASE_URL",
  "CHAINFORM_ACCESS_KEY",
  "CHAINFORM_BEARER_TOKEN",
  "CHAINFORM_ACCOUNT",
  "CHAINFORM_PROJECT",
];

describe("ChainformProvider", () => {
  it("synthesizes an empty provider block when given nothing, leaving the environment variables to the provider", () => {
    // GIVEN the CHAINFORM_* variables set in the synthesizing process
    const saved = NO_CREDENTIAL_ENV.map((k) => [k, process.env[k]] as const);
    for (const k of NO_CREDENTIAL_ENV) process.env[k] = `from-env-${k}`;
    try {
      // WHEN a provider is built without props
      const synthesized = Testing.synthScope((scope) => {
        new ChainformProvider(scope, "chainform");
      });
      // THEN none of them is written to the synthesized JSON: the provider reads them when Terraform runs
      expect(synthesized).toHaveProvider(provider.ChainformProvider);
      expect(synthesized).not.toContain("from-env-");
      expect(JSON.parse(synthesized).terraform.required_providers.chainform).toEqual({
        source: "chainform/chainform",
        version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      });
    } finally {
      for (const [k, v] of saved)
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
    }
  });

  it("passes every setting in the provider's snake_case schema", () => {
    // GIVEN every prop
    const synthesized = Testing.synthScope((scope) => {
      new ChainformProvider(scope, "chainform", {
        baseUrl: "http://127.0.0.1:9999",
        accountSlug: "acme",
        projectSlug: "demo",
        requestTimeoutSeconds: 10,
        maxRetries: 2,
        adminRpcUrlsInState: false,
        adoptExisting: true,
        alias: "acme",
      });
    });
    // THEN they are all in the provider block
    expect(synthesized).toHaveProviderWithProperties(provider.ChainformProvider, {
      base_url: "http://127.0.0.1:9999",
      account_slug: "acme",
      project_slug: "demo",
      request_timeout_seconds: 10,
      max_retries: 2,
      admin_rpc_urls_in_state: false,
      adopt_existing: true,
      alias: "acme",
    });
  });

  it("wraps the generated provider as its child 'Resource'", () => {
    const stack = new TerraformStack(Testing.app(), "stack");
    const p = new ChainformProvider(stack, "chainform");
    expect(p.node.defaultChild).toBe(p.resource);
    expect(p.resource).toBeInstanceOf(provider.ChainformProvider);
  });

  it("warns when a credential is a literal, not when it is a variable", () => {
    // GIVEN a literal access key and a sensitive variable for the bearer token
    const stack = new TerraformStack(Testing.app(), "stack");
    const token = new TerraformVariable(stack, "token", { type: "string", sensitive: true });
    const literal = new ChainformProvider(stack, "literal", { accessKey: "ck_live_secret", alias: "a" });
    const variable = new ChainformProvider(stack, "variable", { bearerToken: token.stringValue, alias: "b" });
    // THEN only the literal gets a warning, which does not echo the key
    const warnings = (c: ChainformProvider) => c.node.metadata.filter((m) => m.type === "@cdktf/warn").map((m) => String(m.data));
    expect(warnings(literal)).toEqual([expect.stringMatching(/accessKey is a literal: it is written in clear to cdktf.out/)]);
    expect(warnings(literal).join()).not.toContain("ck_live_secret");
    expect(warnings(variable)).toEqual([]);
    expect(Annotations.of(literal)).toBeDefined();
  });

  it.each<[string, ChainformProviderProps, RegExp]>([
    [
      "a base URL that is not http(s)",
      { baseUrl: "ftp://example.com" },
      /\[stack\/chainform\] baseUrl "ftp:\/\/example.com" is not an http\(s\) URL/,
    ],
    ["a base URL that is not a URL", { baseUrl: "localhost:8787" }, /baseUrl "localhost:8787" is not an http\(s\) URL/],
    ["a zero timeout", { requestTimeoutSeconds: 0 }, /requestTimeoutSeconds must be a positive number of seconds, got 0/],
    ["negative retries", { maxRetries: -1 }, /maxRetries must be a whole number of retries \(0 or more\), got -1/],
    ["fractional retries", { maxRetries: 1.5 }, /maxRetries must be a whole number/],
  ])("rejects %s", (_name, props, message) => {
    const stack = new TerraformStack(Testing.app(), "stack");
    expect(() => new ChainformProvider(stack, "chainform", props)).toThrow(message);
  });

  it("passes tokens through unvalidated", () => {
    // GIVEN variables for the validated settings
    const synthesized = Testing.synthScope((scope) => {
      const v = (name: string, type: string) => new TerraformVariable(scope, name, { type });
      new ChainformProvider(scope, "chainform", {
        baseUrl: v("base_url", "string").stringValue,
        requestTimeoutSeconds: v("timeout", "number").numberValue,
        maxRetries: v("retries", "number").numberValue,
      });
    });
    // THEN they reach Terraform as references
    expect(synthesized).toHaveProviderWithProperties(provider.ChainformProvider, {
      base_url: "${var.base_url}",
      request_timeout_seconds: "${var.timeout}",
      max_retries: "${var.retries}",
    });
  });
});
