// pvectl's command-line entry: builds the commander program from the command modules
// and turns any error that escapes a command into one readable line (never a stack trace).
import { Command, CommanderError } from "commander";
import { PVECTL_VERSION } from "../version.js";
import { dropOutputWhenReaderCloses } from "./closed-reader.js";
import { registerCommands } from "./commands/index.js";
import { plainDefaultsInHelp } from "./render/help-defaults.js";
import { errorExitCode, errorJson, renderError } from "./render-error.js";

/**
 * The program for `argv`: only the named command's module is loaded, none when it names no
 * command (see commands/index.ts); without `argv`, every command's.
 */
export async function buildProgram(argv?: string[]): Promise<Command> {
  const program = new Command("pvectl")
    .description("Desired-state automation for Proxmox VE")
    .version(PVECTL_VERSION)
    .showHelpAfterError("(run with --help for usage)")
    .option("--verbose", "log every API request to stderr: method, path, status, time in ms (credentials masked)")
    .configureHelp({ showGlobalOptions: true })
    .exitOverride();
  program.hook("preAction", async () => {
    if (program.opts().verbose) await startRequestLog();
  });
  await registerCommands(program, argv);
  plainDefaultsInHelp(program);
  return program;
}

/** `--verbose`: one stderr line per API exchange. Loaded only then (as every module a run does not need). */
async function startRequestLog(): Promise<void> {
  const [{ setRequestLog }, { safeLine }] = await Promise.all([import("../app/request-log.js"), import("../util/safe-text.js")]);
  setRequestLog((e) => process.stderr.write(`api: ${e.method} ${safeLine(e.path)} ${safeLine(String(e.status))} ${e.ms}ms\n`));
}

/**
 * Whether the run asked for JSON. Read from argv rather than from the parsed options: a usage
 * error stops commander before any option is parsed, and it must still answer in JSON.
 */
function wantsJson(argv: string[]): boolean {
  const end = argv.indexOf("--");
  const args = end < 0 ? argv : argv.slice(0, end);
  return args.includes("--json") || args.includes("--format=json") || args.some((a, i) => a === "--format" && args[i + 1] === "json");
}

export async function main(argv: string[]): Promise<void> {
  dropOutputWhenReaderCloses(process.stdout);
  dropOutputWhenReaderCloses(process.stderr);
  const json = wantsJson(argv);
  try {
    const program = await buildProgram(argv);
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // Commander already printed its message on stderr; exit code 0 is --help or --version.
      process.exitCode = err.exitCode;
      if (json && err.exitCode !== 0) process.stdout.write(`${JSON.stringify(errorJson(err, "usage"))}\n`);
      return;
    }
    process.stderr.write(`${renderError(err)}\n`);
    if (json) process.stdout.write(`${JSON.stringify(errorJson(err))}\n`);
    process.exitCode = process.exitCode && process.exitCode !== 0 ? process.exitCode : errorExitCode(err);
  }
}

// Run directly through tsx (development): `tsx src/cli/main.ts ...`
if (import.meta.url === `file://${process.argv[1]}`) {
  await main(process.argv);
}
