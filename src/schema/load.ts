// Loads the generated, committed schema facts from disk, once, on first use.
// JSON is read at runtime instead of imported so the type checker never has to infer a
// type for half a megabyte of data (that would make every `tsc` run slow).

import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { EndpointSchema, SubSchema } from "./types.js";

export interface GeneratedEndpoints {
  source: Record<string, string>;
  endpoints: EndpointSchema[];
}

export interface GeneratedFormats {
  source: Record<string, string>;
  codeFormats: string[];
  propertyStrings: Record<string, SubSchema>;
}

// From src/schema/ (tsx, tests) the files sit next to this module; from dist/schema/
// (compiled) they are looked up in the package's src/schema/generated/ as a fallback.
const CANDIDATE_DIRS = ["./generated/", "../../src/schema/generated/"];

function readGenerated(fileName: string): unknown {
  for (const dir of CANDIDATE_DIRS) {
    const path = fileURLToPath(new URL(dir + fileName, import.meta.url));
    if (existsSync(path)) return JSON.parse(readFileSync(path, "utf8"));
  }
  throw new Error(`pvectl schema data ${fileName} not found next to ${fileURLToPath(import.meta.url)}`);
}

let endpointsCache: GeneratedEndpoints | undefined;
let formatsCache: GeneratedFormats | undefined;

export function loadEndpoints(): GeneratedEndpoints {
  endpointsCache ??= readGenerated("endpoints.json") as GeneratedEndpoints;
  return endpointsCache;
}

export function loadFormats(): GeneratedFormats {
  formatsCache ??= readGenerated("formats.json") as GeneratedFormats;
  return formatsCache;
}
