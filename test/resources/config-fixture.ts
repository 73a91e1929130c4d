// Reads a qemu-server config file (the fixture format) into the object GET .../config returns:
// `key: value` lines of the main section; leading `#` lines and snapshot sections skipped.
import { readFileSync } from "node:fs";

export function readConfigFixture(name: string): Record<string, string | number> {
  const text = readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");
  const config: Record<string, string | number> = {};
  for (const line of text.split("\n")) {
    if (line.startsWith("[")) break;
    if (line.startsWith("#") || line.trim() === "") continue;
    const sep = line.indexOf(": ");
    const key = line.slice(0, sep);
    const value = line.slice(sep + 2);
    config[key] = /^\d+$/.test(value) ? Number(value) : value;
  }
  return config;
}

export function readJsonFixture(name: string): Record<string, string | number> {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8")) as Record<string, string | number>;
}
