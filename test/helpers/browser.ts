/**
 * A real browser for the web tests: Debian's Chromium (`apt-get install chromium`), driven by playwright-core
 * (which downloads no browser). CHROMIUM_PATH overrides where it is.
 */
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

/** Where Chromium is. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Launches headless Chromium; throws with what to install when it is missing. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`no Chromium at ${CHROMIUM_PATH}: run \`apt-get install -y chromium\` (as root)`);
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}
