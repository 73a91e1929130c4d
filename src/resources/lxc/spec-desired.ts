// ContainerSpec (the validated spec model) -> DesiredCt (the engine's normalized view). The
// spec model already holds PVE's names and canonical text, so this is a reshaping: mount
// points and NICs in slot order, the password as a reference, absent sections unmanaged.
import type { DesiredCt, DesiredCtNic, DesiredMount } from "./model.js";
import { normalizeCtOption } from "./options.js";
import type { ContainerSpec, CtMountSpec } from "./spec-model.js";

const bySlot = (a: string, b: string): number => a.localeCompare(b, "en", { numeric: true });

function desiredMount(slot: string, mount: CtMountSpec): DesiredMount {
  return {
    slot,
    ...(mount.storage !== undefined ? { storage: mount.storage } : {}),
    ...(mount.sizeBytes !== undefined ? { sizeBytes: mount.sizeBytes } : {}),
    ...(mount.bindPath !== undefined ? { bindPath: mount.bindPath } : {}),
    ...(mount.mountpoint !== undefined ? { mountpoint: mount.mountpoint } : {}),
    options: { ...mount.options },
  };
}

export function desiredCtFromSpec(ct: ContainerSpec): DesiredCt {
  const mounts: DesiredMount[] = [];
  if (ct.rootfs) mounts.push(desiredMount("rootfs", ct.rootfs));
  for (const slot of Object.keys(ct.mounts).sort(bySlot)) mounts.push(desiredMount(slot, ct.mounts[slot] as CtMountSpec));
  const nics: DesiredCtNic[] = Object.keys(ct.nics)
    .sort(bySlot)
    .map((slot) => {
      const nic = ct.nics[slot] as ContainerSpec["nics"][string];
      return {
        slot,
        name: nic.name,
        ...(nic.bridge !== undefined ? { bridge: nic.bridge } : {}),
        ...(nic.hwaddr !== undefined ? { hwaddr: nic.hwaddr } : {}),
        options: { ...nic.options },
      };
    });
  return {
    kind: "lxc",
    key: ct.name,
    name: ct.name,
    ...(ct.vmid !== undefined ? { vmid: ct.vmid } : {}),
    node: ct.node,
    ...(ct.ostemplate !== undefined ? { ostemplate: ct.ostemplate } : {}),
    // In the form the live side is read in (property strings in PVE's key order), so equal meaning compares equal.
    options: Object.fromEntries(Object.entries(ct.options).map(([key, value]) => [key, normalizeCtOption(key, value)])),
    ...(ct.sshPublicKeys !== undefined ? { sshPublicKeys: ct.sshPublicKeys.join("\n") } : {}),
    ...(ct.password !== undefined ? { password: { ...ct.password } } : {}),
    // Left out: tags are not managed (the container keeps its own); a create adds the ownership tag.
    ...(ct.tags !== undefined ? { tags: [...ct.tags].sort() } : {}),
    mounts,
    nics,
    ...(ct.detach !== undefined ? { detach: [...ct.detach] } : {}),
    ...(ct.unmanaged !== undefined && ct.unmanaged.length > 0 ? { unmanaged: [...ct.unmanaged] } : {}),
    ...(ct.power !== undefined ? { power: ct.power } : {}),
    ...(ct.template !== undefined ? { template: ct.template } : {}),
    ...(ct.state === "absent" ? { absent: true } : {}),
    ...(ct.pool !== undefined ? { pool: ct.pool } : {}),
    ...(ct.adopt === true ? { adopt: true } : {}),
    ...(ct.snapshots !== undefined ? { snapshots: { ...ct.snapshots } } : {}),
    ...(ct.clone !== undefined ? { clone: { ...ct.clone } } : {}),
  };
}
