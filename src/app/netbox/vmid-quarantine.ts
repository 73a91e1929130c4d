// vmids freed by `netbox decommission` stay out of allocation for a while (`vmidQuarantine`),
// so a new guest does not take the id of one destroyed an hour ago (monitoring, backups and
// people still know the old one by it). The record of a freed id lives in NetBox, as a journal
// entry on the NetBox cluster: shared by every operator and runner, and it survives the VM
// record's deletion.
import type { NetboxClient } from "../../netbox/client.js";
import type { NetboxConfig } from "../../sources/netbox/config.js";

const CLUSTER = "virtualization.cluster";
const FREED = /^pvectl freed vmid (\d+)\b/;

/** Notes on the record's NetBox cluster that its guest's vmid was freed now. */
export async function recordFreedVmid(netbox: NetboxClient, clusterId: number, vmid: number, name: string): Promise<void> {
  await netbox.create("extras/journal-entries", {
    assigned_object_type: CLUSTER,
    assigned_object_id: clusterId,
    kind: "info",
    comments: `pvectl freed vmid ${vmid} (${name}); not handed out again until the quarantine ends`,
  });
}

/**
 * Per PVE connection ("" = the PROXMOX_* one), the vmids freed within the quarantine by any
 * configured cluster on it; `spans` gives a connection's own quarantine (quarantine-retention.ts),
 * else the configured one applies.
 */
export async function vmidsInQuarantine(
  netbox: NetboxClient,
  config: NetboxConfig,
  now = Date.now(),
  spans = new Map<string, number>(),
): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  const names = Object.keys(config.clusters);
  const spanOf = (connection: string) => spans.get(connection) ?? config.vmidQuarantineMs;
  const longest = Math.max(config.vmidQuarantineMs, ...spans.values());
  if (longest <= 0 || names.length === 0) return out;
  const clusters = await netbox.list("virtualization/clusters", { name: names });
  if (clusters.length === 0) return out;
  const connectionOf = new Map(clusters.map((c) => [c.id, config.clusters[c.name]?.connection ?? ""]));
  const since = new Date(now - longest).toISOString();
  const notes = await netbox.list("extras/journal-entries", {
    assigned_object_type: CLUSTER,
    assigned_object_id: [...connectionOf.keys()],
    created_after: since,
  });
  for (const note of notes) {
    const vmid = FREED.exec(note.comments)?.[1];
    const connection = connectionOf.get(note.assigned_object_id);
    if (vmid === undefined || connection === undefined) continue;
    // Read with the longest quarantine: each connection keeps only the notes within its own.
    if (note.created && Date.parse(note.created) < now - spanOf(connection)) continue;
    out.set(connection, [...(out.get(connection) ?? []), Number(vmid)]);
  }
  return out;
}
