// LiveCt -> a container in the spec file's own shape (what a person writes under
// `containers:`), for `pvectl show` and `pvectl import`. Planning a spec written this way
// against the same container finds nothing to change.
import { userTags } from "../placement-record.js";
import { formatSize, guestSubSchema } from "../../pve/index.js";
import type { SpecObject } from "../kind.js";
import { OWNERSHIP_TAG } from "../ownership.js";
import type { LiveCt, LiveCtNic, LiveMount } from "./model.js";
import { bool, ctExtraConfig, ctSpecFields, drop, num } from "./to-spec-options.js";

const bySlot = (a: { slot: string }, b: { slot: string }): number => a.slot.localeCompare(b.slot, "en", { numeric: true });

/** Sub-options as their schema types them (booleans, numbers, text). */
function typed(key: string, options: Record<string, string>, skip: (name: string, value: string) => boolean = () => false): SpecObject {
  const schema = guestSubSchema("lxc", key) ?? {};
  const out: SpecObject = {};
  for (const [name, value] of Object.entries(options)) {
    if (skip(name, value)) continue;
    const type = schema[name]?.type;
    out[name] = type === "boolean" ? bool(value) : type === "integer" || type === "number" ? num(value) : value;
  }
  return drop(out);
}

function mountSpec(mount: LiveMount): SpecObject {
  const options = typed(mount.slot === "rootfs" ? "rootfs" : "mp0", mount.options);
  // A volume on a storage is written as its storage and size; anything else is a bind or device mount.
  const where: SpecObject =
    mount.storage !== undefined
      ? { storage: mount.storage, size: mount.sizeBytes !== undefined ? formatSize(mount.sizeBytes) : undefined }
      : { volume: mount.volume };
  return drop({ ...where, mountpoint: mount.slot === "rootfs" ? undefined : mount.mountpoint, ...options });
}

function nicSpec(nic: LiveCtNic): SpecObject {
  return drop({
    // PVE requires a name; eth<N> for net<N> is what the spec assumes when it is left out.
    name: nic.name === `eth${nic.slot.slice(3)}` ? undefined : nic.name,
    bridge: nic.bridge,
    hwaddr: nic.hwaddr,
    // veth is the only type there is.
    ...typed("net0", nic.options, (name, value) => name === "type" && value === "veth"),
  });
}

export function liveToSpecCt(live: LiveCt): SpecObject {
  const ct: SpecObject = {
    vmid: live.vmid,
    hostname: live.name ?? `ct${live.vmid}`,
    node: live.node,
    // Importing a container pvectl did not create is the operator's choice to manage it, in writing.
    adopt: live.tags.includes(OWNERSHIP_TAG) ? undefined : true,
    pool: live.pool,
    // A template is never started: `template: true` says all there is about its power.
    ...(live.template ? { template: true } : { power: live.status }),
    ...ctSpecFields(live.options),
  };
  // pvectl's own tags (ownership, placement record) are not the spec's.
  const tags = userTags(live.tags);
  if (tags.length > 0) ct.tags = tags;
  const mounts = Object.values(live.mounts).sort(bySlot);
  const rootfs = mounts.find((m) => m.slot === "rootfs");
  if (rootfs) ct.rootfs = mountSpec(rootfs);
  const points = mounts.filter((m) => m.slot !== "rootfs");
  if (points.length > 0) ct.mounts = Object.fromEntries(points.map((m) => [m.slot, mountSpec(m)]));
  const nics = Object.values(live.nics).sort(bySlot);
  if (nics.length > 0) ct.nics = Object.fromEntries(nics.map((n) => [n.slot, nicSpec(n)]));
  const extra = ctExtraConfig(live.options);
  if (Object.keys(extra).length > 0) ct.extraConfig = extra;
  return drop(ct);
}
