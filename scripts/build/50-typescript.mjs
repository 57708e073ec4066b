// Type-checks and compiles lib/ to dist/ (JavaScript and declarations) with tsc.
import { execFileSync } from "node:child_process";
import { join } from "node:path";

export default async function compileTypeScript({ root }) {
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  execFileSync(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json")], { stdio: "inherit", cwd: root });
}
