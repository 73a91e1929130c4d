// pvectl loads only the module of the command a run names, and none for `--version`, `--help`
// or an unknown command: the command list those show is built from summaries in
// commands/index.ts, which must say exactly what the modules themselves register.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Command } from "commander";
import { namedCommand, registerCommands } from "../../src/cli/commands/index.js";
import { buildProgram } from "../../src/cli/main.js";
import { pvectlChild } from "../support/cli.js";

const argv = (...args: string[]) => ["node", "pvectl", ...args];

describe("start-up: command modules loaded on demand", () => {
  it("pvectl --help from the summaries is the help the command modules give", async () => {
    const fromSummaries = await buildProgram(argv("--help"));
    const fromModules = await buildProgram();
    assert.equal(fromSummaries.helpInformation(), fromModules.helpInformation());
    assert.deepEqual(
      fromSummaries.commands.map((c) => c.name()),
      fromModules.commands.map((c) => c.name()),
    );
  });

  it("names the command to load from the first word that is not an option, or the one after help", () => {
    assert.equal(namedCommand(argv("plan", "spec.yaml")), "plan");
    assert.equal(namedCommand(argv("--verbose", "apply", "--yes")), "apply");
    assert.equal(namedCommand(argv("help", "snapshot")), "snapshot");
    assert.equal(namedCommand(argv("--version")), undefined);
    assert.equal(namedCommand(argv("--help")), undefined);
    assert.equal(namedCommand(argv("plna")), undefined);
    assert.equal(namedCommand(argv("-h", "plan")), undefined, "the program's help lists every command");
    assert.equal(namedCommand(argv("plan", "--help")), "plan");
    assert.equal(namedCommand(argv("constructor")), undefined);
  });

  it("registers only summaries when no command is named: none of them can run", async () => {
    const program = new Command("pvectl").exitOverride();
    await registerCommands(program, argv("--version"));
    assert.ok(program.commands.length > 10);
    for (const command of program.commands) assert.deepEqual(command.options, [], `${command.name()} is a summary, not the module`);
    await assert.rejects(program.parseAsync(argv("plan")), /ran without its module/);
  });

  // As a child: in this process every module is loaded already (buildProgram() above), and the
  // point is that a fresh start, loading only the summaries, answers.
  it("the CLI still answers --version, --help, help <command> and an unknown command", async () => {
    const version = await pvectlChild(["--version"]);
    assert.equal(version.code, 0);
    assert.match(version.stdout, /^\d+\.\d+\.\d+/);
    const help = await pvectlChild(["--help"]);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /restore \[options\] <archive> +make a guest from a backup archive/);
    const helpPlan = await pvectlChild(["help", "plan"]);
    assert.equal(helpPlan.code, 0);
    assert.match(helpPlan.stdout, /--read-concurrency <n>/);
    const unknown = await pvectlChild(["plna"]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /unknown command 'plna'[\s\S]*Did you mean plan\?/);
  });
});
