// Every command's --help shows option defaults as values (`default: 120`), never as quoted
// strings (`default: "120"`).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Command } from "commander";
import { buildProgram } from "../../src/cli/main.js";
import { pvectl } from "../support/cli.js";

function allCommands(command: Command): Command[] {
  return [command, ...command.commands.flatMap(allCommands)];
}

describe("option defaults in --help", () => {
  it("no command prints a default in quotes", async () => {
    const program = await buildProgram();
    const commands = allCommands(program);
    assert.ok(commands.length > 10, "every command and subcommand is registered");
    for (const command of commands) {
      const help = command.helpInformation();
      assert.doesNotMatch(help, /default: "/, `pvectl ${command.name()} --help`);
    }
  });

  it("pvectl plan --help shows numbers as numbers", async () => {
    const result = await pvectl(["plan", "--help"]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /--read-concurrency <n> +config reads in parallel \(default: 16\)/);
    assert.match(result.stdout, /--shutdown-timeout <seconds>[^(]*\(default:\s+\d+\)/);
  });
});
