/** The echo provider's binary entry point (bundled with esbuild by the tests). */
import { serveProvider } from "../../lib/terraform/framework/serve";

// Loaded after the handshake: Terraform waits for the handshake line of each of the 3-5 processes per command.
void serveProvider(async () => (await import("./echo-provider.js")).echoProvider);
