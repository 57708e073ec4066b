/**
 * `chainform_environment`: a multi-network environment, one Virtual Environment per `network_config`, with an
 * optional bridge between them. The service has no update endpoint, so every change of meaning replaces the
 * environment and the plan names the attribute that forces it. Changes of spelling only (`"100ether"` written as
 * `"0x56bc75e2d63100000"`, an address in other letter case) are in-place updates that call nothing.
 *
 * The service's documented Environment shows the display name, slug, networks with their fork blocks, and each
 * vnet's RPC URLs; it does not show what the environment was created with (chain-id overrides, accounts,
 * explorer, bridge). The chain id is read from each chain (`eth_chainId`) at import and refresh; the rest lives in
 * Terraform state: state keeps what was applied, and read refreshes only what the service and the chains show. See
 * lib/terraform/provider/README.md for what import can and cannot recover.
 *
 * This file holds the handlers; the schema is in ./environment-schema.ts, the conversions in
 * ./environment-conversion.ts, clone_from in ./environment-clone.ts, the taken-slug advice in ./environment-slug.ts.
 */
import { ApiError, diffEnvironment, slugTakenBy, type Environment } from "../../../client";
import { slugify } from "../../../domain/slug";
import { bridgeFindings, networkListFindings } from "../../../domain/environment-rules";
import { at, defineResource, isUnknown, type Diagnostics, isKnown } from "../../framework";
import { environmentFieldPath, reportError } from "../errors";
import { requireProject, type ChainformProviderData } from "../provider-data";
import { answeredChainIds, lacksAdminRpc, type VnetState } from "./vnets";
import { ENVIRONMENT_ID, environmentSchema, slugFromPrefix, type EnvironmentState } from "./environment-schema";
import { createRequest, keptInState, pickInputs, toState, withSettings, type Known } from "./environment-conversion";
import { checkPlannedClone, cloneOf, planChainIds } from "./environment-clone";
import { takenSlugAdvice, warnTakenSlug } from "./environment-slug";

export { environmentSchema, slugFromPrefix, type EnvironmentState } from "./environment-schema";
export { createRequest, keptInState, toState, type Known } from "./environment-conversion";

/** The resource. */
export const environment = defineResource<typeof environmentSchema, ChainformProviderData>({
  typeName: "chainform_environment",
  schema: environmentSchema,

  validate({ config, diagnostics }) {
    if (isKnown(config.slug) && isKnown(config.slug_prefix)) {
      diagnostics.error(
        "Conflicting slug arguments",
        "Set slug or slug_prefix, not both: slug_prefix generates the slug.",
        at("slug_prefix"),
      );
    }
    // Rules the service would reject at apply (lib/domain's shared cross-field rules): caught at validate, with the
    // attribute at fault. Unknown values are left out of the check.
    if (isUnknown(config.network_config)) return;
    const entries = config.network_config.map((network) =>
      isUnknown(network)
        ? {}
        : {
            network_id: isKnown(network.network_id) ? network.network_id : undefined,
            chain_id: isKnown(network.chain_id) ? network.chain_id : undefined,
            addresses: isUnknown(network.account)
              ? []
              : network.account.map((a) => (!isUnknown(a) && isKnown(a.address) ? a.address : undefined)),
          },
    );
    for (const finding of networkListFindings(entries)) {
      const [, , i, field, j] = finding.path.split("/");
      const where = Number(i);
      if (field === "network_id") {
        diagnostics.error(
          "Duplicate network",
          `Network ${entries[where]!.network_id} is already network_config[${finding.twin}]; an environment forks each network once. Remove one of them.`,
          at("network_config", where, "network_id"),
        );
      } else if (field === "chain_config_overrides") {
        diagnostics.error(
          "Duplicate chain id",
          `${finding.message.replace(/^chain id/, "Chain id").replace("network_configs", "network_config")}; pick another chain_id.`,
          at("network_config", where, "chain_id"),
        );
      } else {
        const address = entries[where]!.addresses![Number(j)];
        diagnostics.error(
          "Duplicate account",
          `Address ${address} is already account[${finding.twin}] of this network; fund it once.`,
          at("network_config", where, "account", Number(j), "address"),
        );
      }
    }
    if (isUnknown(config.bridge)) return;
    const bridge = config.bridge[0];
    if (!bridge || isUnknown(bridge) || !isKnown(bridge.delay_seconds) || isUnknown(bridge.relay_mode)) return;
    for (const finding of bridgeFindings({ relay_mode: bridge.relay_mode ?? undefined, delay_seconds: bridge.delay_seconds })) {
      diagnostics.error(
        "delay_seconds needs delayedRelay",
        `${finding.message}. Set relay_mode = "delayedRelay" or remove delay_seconds.`,
        at("bridge", 0, "delay_seconds"),
      );
    }
  },

  async modifyPlan({
    plan,
    state,
    config,
    diagnostics,
    providerData,
    requiresReplace: replace,
    keepInPlace,
    private: priorPrivate,
    setPrivate,
  }) {
    // A missing or wrong credential fails the plan, not the apply after it. Skipped when the provider's settings
    // are not known yet; a service that cannot be reached is not a rejection (the calls below report it).
    if (providerData?.accountSlug && providerData.projectSlug && !providerData.configUnknown) {
      const data = providerData;
      const accepted = await data.lookups.credentialsAccepted((error) =>
        reportError(diagnostics, data, error, { action: "plan chainform_environment" }),
      );
      if (!accepted) return;
    }
    planChainIds(plan, config, state, replace);
    if (state !== null) {
      // If this turns out to be a replacement, Terraform plans the new object again with no prior state but with
      // this private data: the slug check below must not mistake the environment being replaced for a squatter.
      setPrivate({ replacing: state.id });
      // Blocks added or removed replace the environment too (attribute changes are marked by their modifiers).
      const planned = plan.network_config;
      if (!isUnknown(planned)) {
        if (planned.length !== state.network_config.length) replace(at("network_config"));
        planned.forEach((network, i) => {
          const prior = state.network_config[i];
          if (!prior || isUnknown(network)) return;
          if (!isUnknown(network.account) && network.account.length !== prior.account.length) replace(at("network_config", i, "account"));
          if (!isUnknown(network.explorer) && network.explorer.length !== prior.explorer.length)
            replace(at("network_config", i, "explorer"));
        });
      }
      if (!isUnknown(plan.bridge) && plan.bridge.length !== state.bridge.length) replace(at("bridge"));
      // After an import, state lacks what the service does not return (explorer, accounts, bridge): the
      // configuration's values are taken as they are, in place, instead of replacing the environment. The chain id
      // was read from the chain itself, so a configuration that says otherwise replaces it; only a chain that did
      // not answer at import leaves its chain id to the configuration.
      if (priorPrivate?.["imported"] === true) {
        const answered = Array.isArray(priorPrivate["answered_chain_ids"]) ? (priorPrivate["answered_chain_ids"] as unknown[]) : [];
        state.network_config.forEach((prior, i) => {
          if (prior.chain_id === null && !answered.includes(prior.network_id)) keepInPlace(at("network_config", i, "chain_id"));
          if (prior.explorer.length === 0) keepInPlace(at("network_config", i, "explorer"));
          if (prior.account.length === 0) keepInPlace(at("network_config", i, "account"));
        });
        if (state.bridge.length === 0) keepInPlace(at("bridge"));
        // Nothing tells which environment an imported one was cloned from.
        if (state.clone_from === null) keepInPlace(at("clone_from"));
      }
      if (!isUnknown(plan.network_config) && !isUnknown(plan.bridge) && !isUnknown(plan.vnets) && Array.isArray(plan.vnets)) {
        plan.vnets = withSettings(plan.vnets as VnetState[], plan.network_config as never, plan.bridge as never);
      }
      // A new slug_prefix replaces the environment unless its slug already starts with it (e.g. after import).
      if (!isUnknown(config.slug_prefix) && config.slug_prefix !== state.slug_prefix) {
        if (config.slug_prefix !== null && !(state.slug ?? "").startsWith(config.slug_prefix)) replace(at("slug_prefix"));
      }
      // A new slug (written, or derived from a new display_name) replaces the environment. Terraform shows only the
      // errors of the replacement's own plan, never its warnings, so a taken new slug is warned about here.
      const nextSlug = isKnown(config.slug)
        ? config.slug
        : config.slug === null && config.slug_prefix === null && isKnown(config.display_name)
          ? slugify(config.display_name)
          : undefined;
      if (nextSlug !== undefined && nextSlug !== state.slug && providerData?.accountSlug && providerData.projectSlug) {
        await warnTakenSlug(providerData, diagnostics, nextSlug, state.id, config.slug === null ? at("display_name") : at("slug"));
      }
      return;
    }
    // Creating: the slug is known now (derived from display_name exactly as the service would), unless
    // slug_prefix asks for a generated one, which stays unknown until apply.
    if (config.slug === null && config.slug_prefix === null && isKnown(config.display_name)) plan.slug = slugify(config.display_name);
    if (!providerData || !providerData.accountSlug || !providerData.projectSlug) return;
    const data = providerData;
    const networks = isUnknown(plan.network_config) ? [] : plan.network_config;
    try {
      // Unsupported networks fail the plan, not the apply.
      if (networks.some((n) => !isUnknown(n) && isKnown(n.network_id))) {
        const supported = await data.lookups.supportedNetworks();
        const forkable = supported
          .filter((s) => s.supported_features?.virtual_testnet !== false)
          .map((s) => `${s.chain_id} (${s.network_name})`);
        const list = `Networks with Virtual Environments: ${forkable.join(", ")}; data.chainform_supported_networks (feature = "virtual_testnet") and \`chainform networks\` list them too.`;
        networks.forEach((network, i) => {
          if (isUnknown(network) || !isKnown(network.network_id)) return;
          const found = supported.find((s) => String(s.chain_id) === network.network_id);
          if (!found) {
            diagnostics.error(
              "Unsupported network",
              `Network ${network.network_id} is not supported by the service. ${list}`,
              at("network_config", i, "network_id"),
            );
          } else if (found.supported_features && !found.supported_features.virtual_testnet) {
            diagnostics.error(
              "Network without Virtual Environments",
              `${found.network_name} (${found.chain_id}) cannot be forked into a Virtual Environment. ${list}`,
              at("network_config", i, "network_id"),
            );
          }
        });
      }
    } catch (error) {
      reportError(diagnostics, data, error, { action: "check the planned networks against the service" });
      return;
    }
    await checkPlannedClone(data, diagnostics, plan);
    if (!isKnown(plan.slug)) return;
    await warnTakenSlug(data, diagnostics, plan.slug, priorPrivate?.["replacing"], config.slug === null ? at("display_name") : at("slug"));
  },

  async create({ plan, config, providerData: data, diagnostics }) {
    if (!requireProject(data, diagnostics, "create the environment")) return;
    const prefix = typeof plan.slug_prefix === "string" && !isUnknown(plan.slug_prefix) ? plan.slug_prefix : null;
    const fixedSlug = isKnown(plan.slug) ? plan.slug : null;
    if (isKnown(plan.clone_from)) {
      const slug = fixedSlug ?? (prefix !== null ? slugFromPrefix(prefix) : slugify(plan.display_name as string));
      return cloneOf(data, diagnostics, plan as never as EnvironmentState, plan.clone_from, slug);
    }
    // A generated slug that happens to be taken is generated again (twice at most); a fixed one is not.
    for (let attempt = 0; ; attempt++) {
      const slug = fixedSlug ?? (prefix !== null ? slugFromPrefix(prefix) : slugify(plan.display_name as string));
      const request = createRequest({ ...(plan as never as Parameters<typeof createRequest>[0]), slug });
      // No cancellation here: an environment the service created must reach state (Ctrl-C waits for this call).
      try {
        const created = await data.client.createEnvironment(request);
        return keptInState(toState(created, plan as Known), data);
      } catch (error) {
        let existing: Environment | null = null;
        try {
          existing = await slugTakenBy(data.client, {}, slug, error);
        } catch {
          // The lookup failed too: report the create's own error below.
        }
        if (!existing) {
          reportError(diagnostics, data, error, { action: "create the environment", fieldPath: environmentFieldPath });
          return;
        }
        if (fixedSlug === null && prefix !== null && attempt < 2) continue;
        const path = config.slug !== null ? at("slug") : config.slug_prefix !== null ? at("slug_prefix") : at("display_name");
        if (data.adoptExisting) {
          const differences = diffEnvironment(request, existing);
          if (differences.length === 0) {
            diagnostics.warning(
              "Adopted an existing environment",
              `Environment ${existing.id} already had slug "${slug}" and matches this configuration as far as the service shows (display name, networks, fork blocks), so it is now managed here (adopt_existing = true). Its accounts, chain-id overrides, explorer and bridge settings are not in the service's answer and were not checked.`,
              path,
            );
            return keptInState(toState(existing, plan as Known), data);
          }
          diagnostics.error(
            "An environment with this slug already exists and does not match",
            `Environment ${existing.id} has slug "${slug}" but differs from this configuration, so adopt_existing does not adopt it: ` +
              differences.map((d) => `${d.path}: configured ${JSON.stringify(d.expected)}, found ${JSON.stringify(d.actual)}`).join("; ") +
              `. Change the configuration to match, choose another slug, or delete that environment.`,
            path,
          );
          return;
        }
        const said =
          error instanceof ApiError
            ? ` The service said: ${error.serviceMessage}${error.errorId ? ` (error id ${error.errorId})` : ""}`
            : "";
        diagnostics.error(
          "An environment with this slug already exists",
          `Project ${data.accountSlug}/${data.projectSlug} already has environment ${existing.id} with slug "${slug}" ("${existing.display_name}"). ${takenSlugAdvice(data, existing)}${said}`,
          path,
        );
        return;
      }
    }
  },

  async read({ state, providerData: data, diagnostics }) {
    if (!requireProject(data, diagnostics, "read the environment")) return;
    try {
      const environment = await data.client.getEnvironment({ environmentId: state.id });
      if (lacksAdminRpc(environment)) warnNoAdminRpc(diagnostics);
      return keptInState(toState(environment, state as Known, await answeredChainIds(environment, data.caFile)), data);
    } catch (error) {
      // Deleted out of band: drop it from state, so that the next plan creates it again.
      if (error instanceof ApiError && error.status === 404) return null;
      reportError(diagnostics, data, error, { action: `read environment ${state.id}` });
      return;
    }
  },

  // Only changes of spelling reach update (every change of meaning forces replacement): nothing to send.
  async update({ plan, state, providerData: data }) {
    const inputs = pickInputs(plan as unknown as EnvironmentState);
    return keptInState(
      { ...state, ...inputs, vnets: withSettings(state.vnets as VnetState[], inputs.network_config, inputs.bridge) },
      data,
    );
  },

  async delete({ state, providerData: data, diagnostics }) {
    if (!requireProject(data, diagnostics, "delete the environment")) return;
    try {
      await data.client.deleteEnvironment({ environmentId: state.id, ensureDeleted: true });
    } catch (error) {
      reportError(diagnostics, data, error, { action: `delete environment ${state.id}` });
    }
  },

  // Version 0 held chain ids as numbers: exact only up to 2^53, so they are strings now.
  upgradeState({ version, state }) {
    if (version >= 1) return state;
    const asText = (value: unknown) => (typeof value === "number" ? String(value) : value);
    const networks = Array.isArray(state["network_config"]) ? (state["network_config"] as Record<string, unknown>[]) : [];
    const vnets = Array.isArray(state["vnets"]) ? (state["vnets"] as Record<string, unknown>[]) : [];
    return {
      ...state,
      network_config: networks.map((n) => ({ ...n, chain_id: asText(n["chain_id"]) })),
      vnets: vnets.map((v) => ({ ...v, chain_id: asText(v["chain_id"]), bridge_address: v["bridge_address"] ?? null })),
    };
  },

  async importState({ id, providerData: data, diagnostics, setPrivate }) {
    if (!requireProject(data, diagnostics, "import the environment")) return;
    // What the service does not return is unknown to the imported state: the first plan takes it from the
    // configuration. Chain ids are not: the read after the import asks each chain (`eth_chainId`).
    const imported = async (found: Environment) => {
      setPrivate({ imported: true, answered_chain_ids: [...(await answeredChainIds(found, data.caFile)).keys()] });
      return { id: found.id };
    };
    const hint = `Import takes the environment's id (a UUID) or its slug, e.g.\n\n  terraform import chainform_environment.<name> ci-main\n\nList them with data.chainform_environments or \`chainform environments\`.`;
    try {
      if (ENVIRONMENT_ID.test(id)) {
        return await imported(await data.client.getEnvironment({ environmentId: id.toLowerCase() }));
      }
      const found = await data.client.getEnvironmentBySlug({ slug: id });
      if (found) return await imported(found);
      diagnostics.error(
        "No such environment",
        `Project ${data.accountSlug}/${data.projectSlug} has no environment with slug "${id}". ${hint}`,
      );
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        diagnostics.error(
          "No such environment",
          `Project ${data.accountSlug}/${data.projectSlug} has no environment with id ${id}. ${hint}`,
        );
        return;
      }
      reportError(diagnostics, data, error, { action: `import environment ${id}` });
    }
    return undefined;
  },
});

/** The credential may not write, so the service left out the Admin RPC URLs. */
export function warnNoAdminRpc(diagnostics: Diagnostics): void {
  diagnostics.warning(
    "No Admin RPC URLs",
    "The service did not return Admin RPC URLs: the credential may not write (a read-only key). admin_rpc_urls is empty and vnets[*].admin_rpc_url is null; use a key that may write to get them.",
  );
}

/** Re-exported for tests. */
export type { Diagnostics };
