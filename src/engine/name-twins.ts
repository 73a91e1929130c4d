// Two runs that create the same spec names at once, each with a vmid it allocated itself, can
// both succeed: PVE's create is atomic per vmid, not per name. Each run then truthfully created
// a guest, but the cluster holds two guests with one name and the ownership tag, and the next
// plan refuses the name as ambiguous. One listing after the run finds such twins so the report
// says so now, naming both vmids, instead of "created".
import { kindOf } from "../resources/index.js";
import type { PveClient } from "../api/index.js";
import { readCluster } from "./cluster.js";
import { isOwned } from "./identity.js";
import { type GuestReport, resultOf } from "./report.js";
import type { GuestPlan } from "../plan/types.js";
import { errorText } from "./retry-policy.js";

/** Marks reports of guests this run created by name (no vmid in the spec) that now have an owned twin. */
export async function reportNameTwins(client: PveClient, runs: Array<{ guest: GuestPlan; report: GuestReport }>): Promise<void> {
  const byName = runs.filter(({ guest, report }) => guest.vmid === undefined && report.result === "created" && report.vmid !== undefined);
  if (byName.length === 0) return;
  let guests: Awaited<ReturnType<typeof readCluster>>["guests"];
  try {
    guests = (await readCluster(client)).guests;
  } catch (err) {
    for (const { report } of byName)
      report.warnings.push(`could not check for a guest of the same name created meanwhile: ${errorText(err).split("\n")[0]}`);
    return;
  }
  for (const { guest, report } of byName) {
    const twins = guests.filter((g) => g.type === kindOf(guest).type && g.name === guest.name && g.vmid !== report.vmid && isOwned(g));
    if (twins.length === 0) continue;
    const ids = twins.map((g) => `${g.vmid} on ${g.node}`).join(", ");
    report.error =
      `created vmid ${report.vmid}, but another guest named ${guest.name} with the pvectl tag exists too (${ids}): ` +
      "another run created it at the same time; destroy the one you do not want, or give the spec entry a vmid";
    report.result = resultOf(report, guest.exists);
  }
}
