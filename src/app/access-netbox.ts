// `pvectl access needs -c netbox.yaml` and `access check -c`: least privilege for `netbox sync`,
// `netbox serve` and `netbox decommission`. The PVE side comes from the same derivation as a
// spec's (engine/access-needs.ts) run over the guests the config's records can become
// (access-netbox-shapes.ts): every operation those commands run (create, clone, change,
// start/stop, destroy) on every cluster and platform. The NetBox side is the object permissions
// of the NetBox token (access-netbox-permissions.ts).
import type { PveClient } from "../api/index.js";
import { type AccessNeeds, accessNeeds, type NeedsOptions } from "../engine/access-needs.js";
import type { DesiredGuest } from "../resources/index.js";
import type { NetboxConfig } from "../sources/netbox/config.js";
import { type AccessCheck, checkNeeds } from "./access.js";
import { type NetboxPermission, netboxPermissions } from "./access-netbox-permissions.js";
import { netboxGuestShapes, RECORD_CHOSEN, TEMPLATE_STORAGE } from "./access-netbox-shapes.js";
import { desiredOf } from "./plan-spec.js";

export type { NetboxAction, NetboxCommand, NetboxPermission } from "./access-netbox-permissions.js";

export interface NetboxAccessNeeds extends AccessNeeds {
  /** What the NetBox token needs (object permissions). */
  netbox: NetboxPermission[];
}

export interface NetboxNeedsOptions extends NeedsOptions {
  /** Only the clusters on this connection (a name under `connections:`). */
  connection?: string;
}

/** The guests the config's records can become, keyed `<platform> on <cluster>`; with the notes the shapes gave. */
function netboxGuests(config: NetboxConfig, connection: string | undefined): { guests: DesiredGuest[]; notes: string[] } {
  const { shapes, notes } = netboxGuestShapes(config, connection);
  const vms = shapes.flatMap((s) => (s.spec.kind === "vm" ? [s.spec] : []));
  const containers = shapes.flatMap((s) => (s.spec.kind === "container" ? [s.spec] : []));
  // desiredOf keeps the order: VMs, then containers; each gets its shape's key.
  const keys = [...shapes.filter((s) => s.spec.kind === "vm"), ...shapes.filter((s) => s.spec.kind === "container")].map((s) => s.key);
  const guests = desiredOf({ vms, containers }).map((g, i) => ({ ...g, key: keys[i]! }));
  return { guests, notes };
}

/**
 * A platform's clone source is never in the config: the derivation's note about it speaks of spec
 * files, so it is replaced by one that says what a NetBox config leaves unknown.
 */
function cloneNotes(config: NetboxConfig, notes: string[]): string[] {
  const sources = Object.entries(config.platforms).flatMap(([slug, p]) =>
    p.clone ? [`${slug}: ${typeof p.clone.from === "number" ? `vmid ${p.clone.from}` : `'${p.clone.from}'`}`] : [],
  );
  if (sources.length === 0) return notes;
  return [
    ...notes.filter((n) => !n.startsWith("clone source ")),
    `platforms clone from templates (${sources.join(", ")}): VM.Clone and VM.Audit are listed on the template's /vms/<vmid> (on /vms when named), but the storages of its disks and bridges are not in the config: grant Datastore.AllocateSpace on the storages its disks are on (a linked clone's disks stay there) and SDN.Use on its bridges`,
  ];
}

/** What the operator should know of privileges on a NetBox-built estate, besides the derivation's notes. */
function scopeNotes(config: NetboxConfig, guests: DesiredGuest[]): string[] {
  if (guests.length === 0) return [];
  const vmidFrom = Object.values(config.clusters).some((c) => c.vmidRange) ? "from the cluster's vmidRange or" : "from PVE or";
  return [
    `guests built from NetBox records are in no pool and get their vmid at build (${vmidFrom} the custom field ${config.customFields.vmid}): their privileges are granted on /vms, which reaches every guest of the cluster; pvectl itself changes and destroys only guests it built for a record (or that adopt: true takes over)`,
    `a record's custom fields ${config.customFields.node} and ${config.customFields.storage} may name another node or storage than the config: grant Datastore.AllocateSpace on each storage they name`,
  ];
}

/** The privileges `netbox sync`, `serve` and `decommission` need with this config, per ACL path; and the NetBox token's. */
export function netboxAccessNeeds(config: NetboxConfig, options: NetboxNeedsOptions = {}): NetboxAccessNeeds {
  const { connection, ...needsOptions } = options;
  const { guests, notes } = netboxGuests(config, connection);
  const needs = accessNeeds(guests, undefined, needsOptions, {
    scopeNotes: false,
    skipPath: (path) => path.includes(RECORD_CHOSEN) || path.includes(TEMPLATE_STORAGE),
  });
  return {
    ...needs,
    notes: [...notes, ...cloneNotes(config, needs.notes), ...scopeNotes(config, guests)],
    netbox: netboxPermissions(config),
  };
}

/** What `subject` lacks of the config's needs in PVE (the NetBox token is not checked: NetBox does not tell). */
export async function checkNetboxAccess(
  client: PveClient,
  config: NetboxConfig,
  subject: string,
  options: NetboxNeedsOptions = {},
): Promise<AccessCheck> {
  return checkNeeds(client, netboxAccessNeeds(config, options), netboxGuests(config, options.connection).guests, subject);
}
