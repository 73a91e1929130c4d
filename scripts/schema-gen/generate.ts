// Produces the text of every generated file from the shared PVE schema sources.
// Pure: reads the source directory, returns { relative path -> file text }, writes nothing,
// so the up-to-date test can compare it with the committed files.

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { EndpointSchema, ParamSchema } from "../../src/schema/types.js";
import { emitApiTypes } from "./emit-types.js";
import { jsonWithListPerLine, jsonWithMapPerLine } from "./emit-json.js";
import { collectEndpoints, collectFormats } from "./endpoints.js";
import { isRecord } from "./normalize.js";

export const GENERATED_DIR = "src/schema/generated";

export interface GenerationResult {
  files: Record<string, string>;
  /** Facts deliberately left out (prose defaults, unenforced keywords), for the script's report. */
  dropped: string[];
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** Index ranges must agree with the raw dump, which still lists every indexed key. */
function crossCheckIndexRanges(endpoints: EndpointSchema[], rawDump: unknown): void {
  if (!isRecord(rawDump)) throw new Error("pve-api-rawdump.json is not an object");
  const rawInfo = new Map<string, Record<string, unknown>>();
  const visit = (nodes: unknown): void => {
    if (!Array.isArray(nodes)) return;
    for (const node of nodes) {
      if (!isRecord(node) || typeof node.path !== "string") continue;
      if (isRecord(node.info)) {
        for (const [method, info] of Object.entries(node.info)) {
          if (isRecord(info)) rawInfo.set(`${method} ${node.path}`, info);
        }
      }
      visit(node.children);
    }
  };
  visit(rawDump.root);
  const check = (where: string, props: Record<string, ParamSchema> | undefined, raw: unknown): void => {
    if (!props || !isRecord(raw) || !isRecord(raw.properties)) return;
    const rawKeys = Object.keys(raw.properties);
    for (const [key, schema] of Object.entries(props)) {
      if (!schema.index) continue;
      const base = key.slice(0, -3);
      const found = rawKeys
        .map((k) => new RegExp(`^${base}(\\d+)$`).exec(k)?.[1])
        .filter((n): n is string => n !== undefined)
        .map(Number);
      if (found.length === 0) continue; // endpoint newer than the raw dump
      const min = Math.min(...found);
      const max = Math.max(...found);
      if (min !== schema.index.min || max !== schema.index.max) {
        throw new Error(`${where} ${key}: index ${schema.index.min}..${schema.index.max}, raw dump has ${min}..${max}`);
      }
    }
  };
  for (const endpoint of endpoints) {
    const raw = rawInfo.get(`${endpoint.method} ${endpoint.path}`);
    if (!raw) continue;
    check(`${endpoint.method} ${endpoint.path} params`, endpoint.params, raw.parameters);
    check(`${endpoint.method} ${endpoint.path} returns`, endpoint.returns.properties, raw.returns);
  }
}

export function generateSchemaFiles(sourceDir: string): GenerationResult {
  const dropped: string[] = [];
  const report = (where: string, what: string): void => {
    dropped.push(`${where}: ${what}`);
  };
  const apidataText = readFileSync(join(sourceDir, "apidata.json"), "utf8");
  const formatsText = readFileSync(join(sourceDir, "pve-formats.json"), "utf8");
  const endpoints = collectEndpoints(JSON.parse(apidataText), report);
  crossCheckIndexRanges(endpoints, JSON.parse(readFileSync(join(sourceDir, "pve-api-rawdump.json"), "utf8")));
  const formats = collectFormats(JSON.parse(formatsText), report);

  const source = {
    apidata: "proxmox/pve-docs api-viewer/apidata.js (PVE 9.1, pve-docs 9.1.3), facts only",
    apidataSha256: sha256(apidataText),
    formats: "proxmox/proxmox-rs pve-api-types/pve-api.json `formats`, facts only",
    formatsSha256: sha256(formatsText),
    generator: "scripts/generate-schema.ts",
  };
  const files: Record<string, string> = {
    [`${GENERATED_DIR}/endpoints.json`]: jsonWithListPerLine({ source }, "endpoints", endpoints),
    [`${GENERATED_DIR}/formats.json`]: jsonWithMapPerLine(
      { source, codeFormats: formats.codeFormats },
      "propertyStrings",
      formats.propertyStrings,
    ),
    [`${GENERATED_DIR}/api-types.ts`]: emitApiTypes(endpoints),
  };
  return { files, dropped };
}
