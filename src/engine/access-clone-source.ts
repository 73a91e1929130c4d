// The clone source of a spec guest as far as the spec files tell: its vmid, node, the
// storages of its volumes and the bridges of its NICs (the clone call copies or links those,
// and PVE checks Datastore.AllocateSpace and SDN.Use on each). A source outside the specs is
// said in a note: its vmid may be known (`clone.from: 9000`), its volumes and bridges are not.

import { type CloneSourceFacts, UNKNOWN_VMID } from "../resources/clone-step.js";
import { type DesiredGuest, kindOf } from "../resources/index.js";

function volumesOf(guest: DesiredGuest): Array<{ slot: string; storage: string }> {
  return kindOf(guest).desiredVolumes(guest);
}

function bridgesOf(guest: DesiredGuest): string[] {
  const nics: Array<{ bridge?: string }> = guest.nics;
  return [...new Set(nics.flatMap((n) => (n.bridge !== undefined ? [n.bridge] : [])))].sort();
}

export function cloneSourceOf(guest: DesiredGuest, all: DesiredGuest[], notes: string[]): CloneSourceFacts | undefined {
  const from = guest.clone?.from;
  if (from === undefined) return undefined;
  const source = all.find((g) => (typeof from === "number" ? g.vmid === from : g.name === from || g.key === from));
  if (source !== undefined && source.vmid !== undefined) {
    const template = "template" in source && source.template === true;
    return {
      vmid: source.vmid,
      node: source.node,
      name: source.name,
      template,
      running: false,
      volumes: volumesOf(source),
      bridges: bridgesOf(source),
    };
  }
  const known = typeof from === "number" ? from : UNKNOWN_VMID;
  notes.push(
    typeof from === "number"
      ? `clone source ${from} of ${guest.key} is not in these specs: VM.Clone and VM.Audit are listed on /vms/${from}, but the storages and bridges its copy uses are not known (add its spec file)`
      : `clone source '${from}' of ${guest.key} is not in these specs (or has no vmid): its vmid is unknown, so VM.Clone and VM.Audit are listed on /vms; add its spec file to narrow that`,
  );
  return { vmid: known, node: guest.clone?.node ?? guest.node, template: true, running: false, volumes: [], bridges: [] };
}
