// GET .../pending as every kind reads it: the effective config is each key's pending value
// (or its current value), minus keys pending deletion; those keys are the pending ones.
import type { ConfigValue, PendingEntry } from "../api/endpoints/index.js";

export interface EffectiveConfig {
  config: Record<string, ConfigValue | undefined>;
  pendingKeys: string[];
}

/**
 * The config in effect now (each key's current value, pending changes left out): what a
 * running guest runs with, and what a revert of a pending change keeps.
 */
export function configInEffect(entries: PendingEntry[]): Record<string, ConfigValue | undefined> {
  return Object.fromEntries(entries.map((e) => [e.key, e.value]));
}

export function effectiveConfig(entries: PendingEntry[]): EffectiveConfig {
  const config: Record<string, ConfigValue | undefined> = {};
  const pendingKeys: string[] = [];
  for (const entry of entries) {
    if (entry.delete) {
      pendingKeys.push(entry.key);
      continue;
    }
    if (entry.pending !== undefined) {
      pendingKeys.push(entry.key);
      config[entry.key] = entry.pending;
    } else config[entry.key] = entry.value;
  }
  return { config, pendingKeys };
}
