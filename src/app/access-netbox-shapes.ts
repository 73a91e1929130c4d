// The guests `netbox sync` can build from a NetBox config, as `access needs` derives privileges
// from them: one per configured cluster and platform, made by the mapping sync itself uses
// (mapRecord) from a record that has what any record of that platform can have: two virtual
// disks (the first a template's, an image's or a rootfs; the second a plain disk or a mount
// point), an interface when the config names a bridge (a NIC, cloud-init's ipconfig0), no
// custom field overriding the
// cluster's node or storage. Whatever NetBox then holds, a record of that cluster and
// platform builds a guest of this shape: the same keys, drives, storages and bridges.
import type { NetboxConfig } from "../sources/netbox/config.js";
import { mapRecord } from "../sources/netbox/mapping.js";
import type { NetboxVmRecord } from "../sources/netbox/records.js";
import type { ContainerSpec, VmSpec } from "../sources/spec/model.js";

/**
 * Stands for a node or storage only the records' custom fields name (the config names none):
 * needs on paths holding it are left out and said in a note (which ones is NetBox's to say).
 */
export const RECORD_CHOSEN = "from-the-record";
/** Stands for the storage of a template's volumes, which a linked clone's disk and cloud-init drive keep. */
export const TEMPLATE_STORAGE = "the-template-storage";

/** A clone's volumes the mapping leaves where the template has them: on the template's storage, unknown here. */
function onTemplateStorage(spec: VmSpec | ContainerSpec): VmSpec | ContainerSpec {
  if (spec.kind !== "vm" || spec.clone === undefined) return spec;
  const disks = Object.fromEntries(
    Object.entries(spec.disks).map(([slot, d]) => [slot, d.storage === undefined ? { ...d, storage: TEMPLATE_STORAGE } : d]),
  );
  const cloudInit =
    spec.cloudInit && spec.cloudInit.storage === undefined ? { ...spec.cloudInit, storage: TEMPLATE_STORAGE } : spec.cloudInit;
  return { ...spec, disks, ...(cloudInit ? { cloudInit } : {}) };
}

export interface GuestShape {
  /** `<platform> on <cluster>`: who needs a privilege, in the output. */
  key: string;
  cluster: string;
  platform: string;
  spec: VmSpec | ContainerSpec;
}

export interface ShapeResult {
  shapes: GuestShape[];
  notes: string[];
}

/**
 * A record of `cluster` and `platform` as NetBox would hand it over; only the fields the mapping
 * reads are filled in (the cast stands for NetBox's read-only ids and links nothing reads here).
 */
function sampleRecord(cluster: string, platform: string, customFields: Record<string, unknown>, withInterface: boolean): NetboxVmRecord {
  const vm = {
    id: 1,
    name: "shape",
    status: { value: "planned" },
    cluster: { id: 1, name: cluster },
    platform: { id: 1, slug: platform },
    vcpus: 1,
    memory: 1024,
    tags: [],
    custom_fields: customFields,
  };
  const iface = {
    id: 1,
    name: "eth0",
    enabled: true,
    mode: { value: "access" },
    untagged_vlan: { id: 1, vid: 10 },
    virtual_machine: { id: 1 },
  };
  const disks = [1, 2].map((id) => ({ id, name: id === 1 ? "root" : "/data", size: 1024, virtual_machine: { id: 1 } }));
  return { vm, interfaces: withInterface ? [iface] : [], disks } as unknown as NetboxVmRecord;
}

/** The clusters the config's records can be on: `select.clusters` when it names some, else every configured one. */
function clustersInScope(config: NetboxConfig, connection: string | undefined): string[] {
  const selected =
    config.select.clusters.length > 0 ? config.select.clusters.filter((c) => c in config.clusters) : Object.keys(config.clusters);
  return selected.filter((c) => connection === undefined || config.clusters[c]?.connection === connection).sort();
}

/** The guest shapes of every cluster and platform in scope (`connection`: only clusters on it). */
export function netboxGuestShapes(config: NetboxConfig, connection?: string): ShapeResult {
  const shapes: GuestShape[] = [];
  const notes: string[] = [];
  for (const cluster of clustersInScope(config, connection)) {
    const mapping = config.clusters[cluster]!;
    const node = mapping.node ?? config.defaults.node;
    const storage = mapping.storage ?? config.defaults.storage;
    for (const platform of Object.keys(config.platforms).sort()) {
      // A container platform's own storage comes before the cluster's.
      const onStorage = config.platforms[platform]?.container?.storage ?? storage;
      const fields: Record<string, unknown> = {
        ...(node === undefined ? { [config.customFields.node]: RECORD_CHOSEN } : {}),
        ...(onStorage === undefined ? { [config.customFields.storage]: RECORD_CHOSEN } : {}),
      };
      if (onStorage === undefined) {
        notes.push(
          `cluster ${cluster} names no storage for ${platform}: its records name theirs in custom field ${config.customFields.storage}, which only NetBox knows; grant Datastore.AllocateSpace on each storage they name`,
        );
      }
      // Without a bridge no record with an interface can be built: the records sync builds have none.
      const bridge = config.platforms[platform]?.container?.bridge ?? mapping.bridge ?? config.defaults.bridge;
      const mapped = mapRecord(sampleRecord(cluster, platform, fields, bridge !== undefined), config);
      const key = `${platform} on ${cluster}`;
      if (!mapped.ok) {
        notes.push(`${key}: no record of it can be built (${mapped.errors.join("; ")}), so it needs nothing`);
        continue;
      }
      shapes.push({ key, cluster, platform, spec: onTemplateStorage(mapped.spec) });
    }
  }
  return { shapes, notes };
}
