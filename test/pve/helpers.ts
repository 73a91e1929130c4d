// Shared test helpers for test/pve.
import { readdirSync, readFileSync } from "node:fs";
import type { SubSchema } from "../../src/schema/types.js";

export { parsePropertyString, PropertyStringError, printPropertyString } from "../../src/pve/index.js";
export type SubSchemaForTest = SubSchema;

const FIXTURES = new URL("../fixtures/pve-configs/", import.meta.url);

/** Config fixture files (copied from Proxmox's test suites) whose name starts with `prefix`. */
export function fixtureNames(prefix: string): string[] {
  return readdirSync(FIXTURES)
    .filter((name) => name.startsWith(prefix))
    .sort();
}

export function readFixture(name: string): string {
  return readFileSync(new URL(name, FIXTURES), "utf8");
}
