import { readFileSync } from "node:fs";
import { join } from "node:path";
import { mirrorLayout } from "../mirror";

// What each provider process reads is start-up time (docs/performance.md): the provider bundle a plan loads must not
// pull back the libraries moved out of it. Each library is recognized by a string its code carries through minifying.
const dir = join(mirrorLayout().bundlePath, "..");
const read = (file: string) => readFileSync(join(dir, `terraform-provider-chainform.${file}`), "utf8");

describe("the provider's bundles", () => {
  const wire = read("bundle.js");
  const provider = read("lazy-0.js");
  const viem = read("lazy-1.js");

  test("viem (with abitype and @noble/hashes) is only in its own bundle, which contracts load on first use", () => {
    const marker = "AbiEncodingLengthMismatchError";
    expect(viem).toContain(marker);
    expect(provider).not.toContain(marker);
    expect(wire).not.toContain(marker);
  });

  test("neither TypeBox nor @msgpack/msgpack is in any of them", () => {
    const typebox = "TypeBox.Kind";
    const msgpack = "Invalid stack state";
    // The markers are in the libraries' code, so that their absence below means something.
    expect(readFileSync(join(require.resolve("@sinclair/typebox"), "..", "type", "symbols", "symbols.js"), "utf8")).toContain(typebox);
    expect(readFileSync(join(require.resolve("@msgpack/msgpack"), "..", "Decoder.cjs"), "utf8")).toContain(msgpack);
    for (const bundle of [wire, provider, viem]) {
      expect(bundle).not.toContain(typebox);
      expect(bundle).not.toContain(msgpack);
    }
  });
});
