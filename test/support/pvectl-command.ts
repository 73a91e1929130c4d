// How a test starts the pvectl CLI as a child process. Under `npm test` the tests run compiled
// (scripts/build-for-tests.mjs rebuilt dist/ a moment before), and the CLI is the built
// bin/pvectl.js: what `npm i -g pvectl` users run, without TypeScript start-up per child. A test
// file run on its own through tsx (`node --import tsx --test test/x.test.ts`) runs the CLI from
// the sources through tsx too, so neither way can exercise a stale dist/.
import { fileURLToPath } from "node:url";

/** The repository root, with a trailing slash (this file sits two folders down, built or not). */
export const ROOT = `${fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "")}/`;

/** True when this module was loaded from its TypeScript source (through tsx) rather than from the build. */
const FROM_SOURCES = import.meta.url.endsWith(".ts");

/** The arguments after `node` that run `pvectl <args>` from the repository root. */
export function pvectlNodeArgs(args: readonly string[] = []): string[] {
  return FROM_SOURCES ? ["--import", "tsx", "src/cli/main.ts", ...args] : ["bin/pvectl.js", ...args];
}

/**
 * The same as one shell command line (for the wrapper scripts Ansible runs as an inventory):
 * `node` with the arguments above, each quoted for `sh`; run it from the repository root.
 */
export function pvectlShellCommand(args: readonly string[] = []): string {
  return ["node", ...pvectlNodeArgs(args)].map(shellQuote).join(" ");
}

function shellQuote(word: string): string {
  return /^[\w./@%+=:,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
