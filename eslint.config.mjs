// ESLint: typescript-eslint's recommended rules, and the layering of lib/ written down as import boundaries
// (eslint/layers.mjs). `npm run lint` runs it; `npm test` runs `npm run lint` first.
import tseslint from "typescript-eslint";
import layers from "./eslint/layers.mjs";

const USERS_OF_THE_DOMAIN = ["lib/client", "lib/service", "lib/terraform", "lib/constructs", "lib/cli", "lib/web", "lib/oci"];

/**
 * The service's own floors, lowest first (README "Layout", docs/service.md): a module may import its own floor and
 * those below, never one above. Each concern of the API (auth, CORS, errors, rate limits, validation) is one folder
 * holding its rule, low, and the API's plugin for it, high; the RPC URLs share the rules, never the plugins. The chain
 * engine (chains/) and the store (store/) lie below all of these and are held by their own layers.
 */
const API_PLUGINS = [
  "lib/service/cors/plugin",
  "lib/service/auth/plugin",
  "lib/service/rate-limit/plugin",
  "lib/service/errors/plugin",
  "lib/service/validation/json-bodies",
];
const SERVICE_FLOORS = [
  // 0: rules that import nothing of the service.
  [
    "lib/service/log",
    "lib/service/https",
    "lib/service/cors/index",
    "lib/service/rate-limit/index",
    "lib/service/errors/index",
    "lib/service/global-plugin",
  ],
  // 1: rules over the store and the engine's types, and what the plugins share.
  [
    "lib/service/auth",
    "lib/service/validation",
    "lib/service/errors/client-errors",
    "lib/service/seed",
    "lib/service/environment-plan",
    "lib/service/context",
    "lib/service/no-chain-engine",
  ],
  // 2: operations on whole environments.
  ["lib/service/environment-files"],
  // 3: the two planes' parts: the API's plugins and routes, the RPC URLs.
  [...API_PLUGINS, "lib/service/routes", "lib/service/rpc"],
  // 4: the API app and the web UI's door; 5: what composes them.
  ["lib/service/app", "lib/service/web-interface"],
  ["lib/service/listen"],
];
/** Every module of the service on a floor above `floor`. */
const aboveFloor = (floor) => SERVICE_FLOORS.slice(floor + 1).flat();

const CHAINS = "lib/service/chains";

/**
 * The rooms of the chain engine (lib/service/chains/README.md), floor by floor from the bottom: a room imports rooms of
 * lower floors only, never one of its own floor or above, nor the engine that composes them (engine.ts, vnet-launch.ts,
 * index.ts); ./types.ts, the engine's contract, is below them all. Only durability/ runs SQL.
 */
const CHAIN_FLOORS = [
  {
    evm: "pure EVM knowledge (ABIs, answer shapes, traces, methods) imports no other room",
    wire: "the bytes to one node (sockets, framing, JSON-RPC, deadlines) know no node, pool or call",
  },
  {
    node: "one node process (anvil, its state files and snapshots) sits on the wire and knows no pool",
    calls: "what an RPC URL does with a call (access, forwarding, Admin RPC) runs on the wire and the EVM's knowledge only",
  },
  {
    pool: "the pool of nodes (lazy start, idle stop, budget, locks) knows nodes, not what runs on them",
    transactions: "the transaction records of what calls did are read from the chain, and written by durability, not here",
    fork: "forks (upstreams, recording proxies) serve nodes, and know nothing of records, durability or simulation",
  },
  {
    durability: "what survives a crash (journal, recovery, saved states, every chain table) knows no bridge, simulation or fork",
    simulation: "simulations and the network replicas keep nothing: they know no records and no durability",
  },
  { bridge: "the bridge's contract and relayer sit on top of the records and durability, and below the engine only" },
];
const CHAIN_ROOMS = CHAIN_FLOORS.flatMap((floor) => Object.keys(floor));
const CHAIN_ROOM_LAYERS = CHAIN_FLOORS.flatMap((floor, level) =>
  Object.entries(floor).map(([room, why]) => ({
    layer: `${CHAINS}/${room}`,
    forbid: [
      ...CHAIN_FLOORS.slice(level)
        .flatMap((f) => Object.keys(f))
        .filter((other) => other !== room)
        .map((other) => `${CHAINS}/${other}`),
      `${CHAINS}/engine`,
      `${CHAINS}/vnet-launch`,
      `${CHAINS}/index`,
      ...(room === "durability" ? [] : ["lib/service/sqlite"]),
    ],
    why: `${why} (rooms: ${CHAIN_ROOMS.join(" < ")}, floor by floor)`,
  })),
);

/** The architecture (README "Layout"), as the folders each layer must not import. */
const LAYERS = [
  {
    layer: "lib/domain",
    forbid: ["lib/api", ...USERS_OF_THE_DOMAIN],
    why: "the domain's rules are imported by every part and import nothing but themselves",
  },
  {
    layer: "lib/api",
    forbid: USERS_OF_THE_DOMAIN,
    why: "the API's wire schemas are built from the domain and imported by the service and the client",
  },
  {
    layer: "lib/terraform/protocol",
    forbid: [
      "lib/terraform/framework",
      "lib/terraform/provider",
      "lib/api",
      "lib/client",
      "lib/service",
      "lib/constructs",
      "lib/cli",
      "lib/web",
    ],
    why: "protocol < framework < provider: the wire layer knows nothing of resources",
  },
  {
    layer: "lib/terraform/framework",
    forbid: ["lib/terraform/provider", "lib/api", "lib/client", "lib/service", "lib/constructs", "lib/cli", "lib/web"],
    why: "protocol < framework < provider: the framework is what any provider is written against",
  },
  {
    layer: "lib/terraform/provider",
    forbid: ["lib/api"],
    typesFrom: ["lib/api"],
    why: "the provider's bundle stays free of TypeBox: it runs only the domain's rules (the API's shapes are types to it)",
  },
  {
    layer: "lib/terraform/provider/resources",
    forbid: ["lib/terraform/protocol"],
    why: "resources are written against the framework only, never against the wire layer",
  },
  {
    layer: "lib/terraform/provider/data-sources",
    forbid: ["lib/terraform/protocol"],
    why: "data sources are written against the framework only, never against the wire layer",
  },
  {
    layer: "lib/oci",
    forbid: ["lib/api", "lib/client", "lib/service", "lib/terraform", "lib/constructs", "lib/cli", "lib/web", "lib/certificates"],
    why: "the OCI store speaks only the registry's API over undici: the CLI, the Action and the service each use it, so it uses none of them",
  },
  {
    layer: "lib/client",
    forbid: ["lib/api", "lib/service", "lib/terraform", "lib/constructs", "lib/cli", "lib/web"],
    typesFrom: ["lib/api"],
    why: "the client is used against the hosted service too: it runs only the domain's rules (the API's shapes are types to it)",
  },
  {
    layer: "lib/client/shapes",
    forbid: ["lib/client/actions", "lib/client/transport", "lib/client/client", "lib/client/createClient", "lib/client/clientFromEnv"],
    why: "the answers' shapes, read tolerantly, are what the operations return: they import no operation and no transport",
  },
  {
    layer: "lib/constructs",
    forbid: ["lib/api", "lib/client", "lib/service", "lib/terraform", "lib/cli", "lib/web"],
    why: "the constructs synthesize configuration: they import only the domain and the generated bindings",
  },
  {
    layer: "lib/service",
    forbid: ["lib/client", "lib/terraform", "lib/constructs", "lib/cli", "lib/web"],
    exempt: ["lib/service/listen"],
    why: "the service implements the API and knows nothing of its clients; only listen.ts, which composes the API, the RPC URLs and the web UI, registers the web UI's plugin",
  },
  {
    layer: "lib/service/app",
    forbid: ["lib/service/rpc", "lib/service/listen", "lib/service/web-interface"],
    why: "the API (the control plane) knows neither the RPC URLs' transports (the data plane), nor the web UI, nor what composes them: listen.ts",
  },
  {
    layer: "lib/service/routes",
    forbid: ["lib/service/rpc", ...API_PLUGINS, ...aboveFloor(3)],
    why: "the API's routes reach the service through app.service (context.ts), never the app, the plugins, the RPC URLs or what composes them",
  },
  {
    layer: "lib/service/rpc",
    forbid: ["lib/service/routes", ...API_PLUGINS, ...aboveFloor(3)],
    why: "the RPC URLs (the data plane) reach the service through app.service (context.ts) and share the API's rules, never its app, routes or plugins",
  },
  ...[
    ["lib/service/auth", 'who is asking and what they may see (docs/service.md "Access")'],
    ["lib/service/cors", "the cross-origin headers"],
    ["lib/service/errors", "the error table and body, the one error handler, the parser's refusals"],
    ["lib/service/rate-limit", "the limiter and the limits"],
    ["lib/service/validation", "what a request must be: its schema, its JSON body"],
  ].map(([layer, job]) => ({
    layer,
    forbid: ["lib/service/routes", "lib/service/rpc", "lib/service/environment-files", ...aboveFloor(3)],
    why: `one concern, one folder (${job}): its rule and its API plugin, which app.ts registers; it knows no route, no transport`,
  })),
  ...["lib/service/cors/index", "lib/service/rate-limit/index", "lib/service/errors/index"].map((layer) => ({
    layer,
    forbid: aboveFloor(0),
    why: "a concern's rule is shared by both planes: it imports nothing of the service, least of all its own plugin",
  })),
  ...["lib/service/auth/index", "lib/service/auth/access", "lib/service/errors/client-errors", "lib/service/validation/index"].map(
    (layer) => ({
      layer,
      forbid: aboveFloor(1),
      why: "a concern's rule over the store stays below the plugins, routes and transports that apply it, its own plugin included",
    }),
  ),
  {
    layer: "lib/service/log",
    forbid: aboveFloor(0),
    why: "every part logs through the scrubber: it imports none of them",
  },
  {
    layer: "lib/service/https",
    forbid: aboveFloor(0),
    why: "the rules of serving on a network are read by listen.ts and the CLI: they import nothing of the service",
  },
  {
    layer: "lib/service/seed",
    forbid: aboveFloor(1),
    why: "the seed fills a fresh store: it knows the store, not the environments' operations, routes or plugins",
  },
  {
    layer: "lib/service/environment-plan",
    forbid: aboveFloor(1),
    why: "planning a new environment is shared by the create route and the environment files' import and clone: it sits below both",
  },
  {
    layer: "lib/service/environment-files",
    forbid: aboveFloor(2),
    why: "environment export, import and clone are called by the routes and the CLI, and import neither the routes nor the app",
  },
  {
    layer: "lib/service",
    forbid: [CHAINS],
    allow: [CHAINS],
    exemptFolders: [CHAINS],
    why: "the rest of the service reaches the chain engine through its face (lib/service/chains/index.ts) only, never a room behind it",
  },
  {
    layer: "lib/service/store",
    forbid: [CHAINS],
    why: "the store knows nothing of chains: chain-host.ts, beside the composition, builds the engine's host from it",
  },
  {
    layer: "lib/service/sqlite",
    forbid: ["lib/service/store", CHAINS, "lib/service/rpc", "lib/service/routes", "lib/service/plugins", "lib/web"],
    why: "the SQLite driver sits below the store and the chain engine, and knows neither",
  },
  {
    layer: CHAINS,
    forbid: ["lib/service/store", "lib/service/rpc", "lib/service/routes", "lib/service/plugins", "lib/service/app", "lib/service/listen"],
    why: "the chain engine knows the service only through ChainHost (chains/types.ts), which the composition builds",
  },
  ...CHAIN_ROOM_LAYERS,
  {
    layer: "lib/web",
    forbid: ["lib/client", "lib/terraform", "lib/constructs", "lib/cli", "lib/service"],
    allow: ["lib/service/web-interface"],
    why: "the web UI reaches the service only through the interface the service exports for it (lib/service/web-interface.ts), never its internals, and never the API's clients",
  },
];

export default tseslint.config(
  {
    ignores: [
      "dist/**",
      "node_modules/**",
      "coverage/**",
      "**/cdktf.out/**",
      "**/.terraform/**",
      "lib/constructs/generated/**",
      "lib/terraform/protocol/proto/descriptor.generated.ts",
    ],
  },
  ...tseslint.configs.recommended,
  { plugins: { chainform: layers }, rules: { "chainform/layers": ["error", LAYERS] } },
  {
    rules: {
      // A leading underscore says "unused on purpose" (a rest sibling that drops a key, a positional parameter).
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
    },
  },
  {
    // The framework maps schema types to resource models generically (as terraform-plugin-framework's reflection
    // does): `any` and `{}` stand where TypeScript cannot express that mapping; resources see typed models only.
    files: ["lib/terraform/framework/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off", "@typescript-eslint/no-empty-object-type": "off" },
  },
  {
    // Lazy `require` keeps start-up short: the CLI loads one command, the provider loads its bundles on first use
    // (docs/performance.md).
    files: [
      "lib/cli/index.ts",
      "lib/terraform/provider/main.ts",
      "lib/terraform/provider/lazy-viem.ts",
      "lib/terraform/protocol/h2-grpc.ts",
    ],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // Tests poke at values of any shape and load modules the way their subjects do.
    files: ["**/*.test.ts", "test/**/*.ts", "test/**/*.cjs"],
    rules: { "@typescript-eslint/no-explicit-any": "off", "@typescript-eslint/no-require-imports": "off" },
  },
);
