// A small file cache of collected guests, keyed by the cluster, the identity and the facts
// level, so repeated `ansible-inventory` runs within the TTL cost no API calls.
import { createHash } from "node:crypto";
import { mkdir, readFile, rename } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { writePrivateFile } from "../util/private-file.js";
import type { CollectResult } from "./collect.js";

export interface CacheKey {
  endpoint: string;
  identity: string;
  level: string;
  /** What decided which guests got per-guest reads (filters, templates) and whether node addresses were read. */
  selection?: string;
}

interface CacheFile {
  savedAt: number;
  key: CacheKey;
  result: CollectResult;
}

export function defaultCacheDir(): string {
  return process.env.XDG_CACHE_HOME ? join(process.env.XDG_CACHE_HOME, "pvectl") : join(homedir(), ".cache", "pvectl");
}

function fileFor(dir: string, key: CacheKey): string {
  const digest = createHash("sha256").update(JSON.stringify(key)).digest("hex").slice(0, 16);
  return join(dir, `inventory-${digest}.json`);
}

export async function readCache(dir: string, key: CacheKey, ttlSeconds: number, now = Date.now()): Promise<CollectResult | undefined> {
  try {
    const cached = JSON.parse(await readFile(fileFor(dir, key), "utf8")) as CacheFile;
    if (JSON.stringify(cached.key) !== JSON.stringify(key)) return undefined;
    if (now - cached.savedAt > ttlSeconds * 1000) return undefined;
    return cached.result;
  } catch {
    return undefined; // a missing or unreadable cache is simply a miss
  }
}

export async function writeCache(dir: string, key: CacheKey, result: CollectResult, now = Date.now()): Promise<void> {
  // The cache lists every guest, its addresses and tags: for its owner's eyes only.
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const target = fileFor(dir, key);
  const temp = `${target}.${process.pid}.tmp`;
  const content: CacheFile = { savedAt: now, key, result };
  await writePrivateFile(temp, JSON.stringify(content));
  await rename(temp, target); // atomic: a concurrent reader sees the old or the new file, never half of one
}
