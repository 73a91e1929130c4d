// A record NetBox says is built (`staged`, `active`: day 2) whose guest is not in Proxmox VE
// any more. Planning it like any spec would create it again from the record: an empty disk (or
// a fresh image), the installer ISO, the old MAC: a blank machine under the old name and
// address, which monitoring and people would take for the old one. That is a choice only the
// operator can make, so it is a plan error unless the run names the record to rebuild.
import type { Plan } from "../../plan/types.js";
import type { NetboxConfig } from "../../sources/netbox/config.js";
import type { MappedVm } from "../../sources/netbox/mapping.js";
import { isBuilt } from "./writeback.js";

function whyNotRebuilt(m: MappedVm, vmid: number | undefined): string {
  const status = m.record.vm.status?.value ?? "";
  const guest = vmid !== undefined ? `its guest (vmid ${vmid})` : "its guest";
  return (
    `the record is ${status} but ${guest} is gone from Proxmox VE: building it again would make a blank guest ` +
    "(new empty disks or a fresh image, the installer ISO, the old MAC), not bring the old one back; " +
    `restore it from a backup (pvectl restore), or rerun with --rebuild ${m.record.vm.name} to build it blank`
  );
}

/** Guests the plan would create for built records not named in `rebuild` lose their steps and carry the reason. */
export function refuseBlankRebuilds(plan: Plan, byKey: Map<string, MappedVm>, config: NetboxConfig, rebuild: readonly string[]): Plan {
  const asked = new Set(rebuild);
  const guests = plan.guests.map((g) => {
    const m = byKey.get(g.key);
    if (g.exists || m === undefined || !isBuilt(m.record, config) || asked.has(m.record.vm.name)) return g;
    return { ...g, steps: [], errors: [...g.errors, whyNotRebuilt(m, g.vmid)] };
  });
  return { ...plan, guests };
}
