// Saved plans (`plan --out FILE`, `apply --plan FILE`). A saved plan is applied exactly as
// written, and only while the cluster still looks the way it did: every guest it changes must
// have the same config `digest` (PVE's SHA-1 of the config file), and every guest it creates
// must still be absent. Otherwise apply refuses and asks for a new plan.
import { readFile } from "node:fs/promises";
import type { PveClient } from "../api/index.js";
import { type ClusterSnapshot, readCluster } from "./cluster.js";
import { findGuest } from "./identity.js";
import type { Plan } from "./types.js";
import { mapConcurrent } from "../util/concurrency.js";
import { writePrivateFile } from "../util/private-file.js";

export interface SavedPlan {
  format: "pvectl-saved-plan/1";
  /** The spec's connection name (undefined: the PROXMOX_* environment). */
  connection?: string;
  specFiles: string[];
  plan: Plan;
}

export class SavedPlanError extends Error {
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super(
      `the saved plan ${file} cannot be applied:\n${problems.map((p) => `  - ${p}`).join("\n")}\n` +
        "Run `pvectl plan --out FILE` again, review it, and apply the new plan.",
    );
    this.name = "SavedPlanError";
  }
  userMessage(): string {
    return this.message;
  }
}

export async function savePlan(file: string, saved: Omit<SavedPlan, "format">): Promise<void> {
  await writePrivateFile(file, `${JSON.stringify({ format: "pvectl-saved-plan/1", ...saved }, null, 2)}\n`);
}

export async function loadPlan(file: string): Promise<SavedPlan> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(file, "utf8"));
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : "not a JSON plan file";
    throw new SavedPlanError(file, [reason]);
  }
  const saved = data as Partial<SavedPlan>;
  if (saved.format !== "pvectl-saved-plan/1" || !saved.plan || !Array.isArray(saved.plan.guests)) {
    throw new SavedPlanError(file, ["not a pvectl saved plan (written by `pvectl plan --out FILE`)"]);
  }
  return saved as SavedPlan;
}

/** Problems that make a saved plan stale; empty when it may be applied. Also returns the cluster read. */
export async function checkSavedPlan(client: PveClient, plan: Plan): Promise<{ problems: string[]; cluster: ClusterSnapshot }> {
  const problems: string[] = [];
  if (plan.target !== client.origin) problems.push(`it was made against ${plan.target}, not ${client.origin}`);
  const cluster = await readCluster(client);
  const changing = plan.guests.filter((g) => g.steps.length > 0);
  await mapConcurrent(changing, 16, async (guest) => {
    if (!guest.exists) {
      const match = findGuest({ name: guest.name, ...(guest.vmid !== undefined ? { vmid: guest.vmid } : {}) }, cluster.guests);
      if (match.kind === "found") problems.push(`${guest.key} was to be created but now exists (vmid ${match.guest.vmid})`);
      return;
    }
    const live = cluster.guests.find((g) => g.vmid === guest.vmid);
    if (!live) {
      problems.push(`${guest.key} (vmid ${guest.vmid}) no longer exists`);
      return;
    }
    if (live.node !== guest.node) {
      problems.push(`${guest.key} (vmid ${guest.vmid}) moved from ${guest.node} to ${live.node} since the plan`);
      return;
    }
    const config = (await client.request("GET", `/nodes/${live.node}/qemu/${live.vmid}/config`)) as { digest?: string };
    if (config.digest !== guest.digest) {
      problems.push(`${guest.key} (vmid ${guest.vmid}) changed since the plan (config digest ${guest.digest?.slice(0, 12)} is now ${config.digest?.slice(0, 12)})`);
    }
  });
  return { problems: problems.sort(), cluster };
}
