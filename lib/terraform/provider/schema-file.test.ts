import { readFileSync } from "node:fs";
import { join } from "node:path";
import { mirrorLayout } from "../mirror";
import { encodeProviderSchema, SCHEMA_FILE } from "./schema-file";
import { createChainformServer } from "./dispatcher";

describe("the schema answer the build writes beside the provider's bundles", () => {
  test("is, byte for byte, what the provider answers from these sources (rebuild after changing a schema)", async () => {
    const built = readFileSync(join(mirrorLayout().bundlePath, "..", SCHEMA_FILE));
    const live = await encodeProviderSchema(createChainformServer());
    expect(live.length).toBeGreaterThan(1000);
    expect(built.equals(live)).toBe(true);
  });
});
