// Template conversions, checked before anything changes, by the storage each volume will be on
// when the conversion runs (the intent names them). A template's volumes become base volumes,
// which some storages cannot hold (pve-storage's `template` feature: plain LVM and iSCSI LUNs
// have none; directory, NFS, CIFS, btrfs, LVM-thin, ZFS and RBD have it). pve-container then
// refuses the conversion ("Template feature is not available for '<volume>'"), before changing
// anything; qemu-server converts anyway and leaves such a disk an ordinary volume, which only a
// full clone can copy: a warning, not an error.
import type { GuestType, TemplateVolume } from "../plan/intent.js";
import { GUEST_KINDS } from "../resources/index.js";
import type { GuestPlan, PreflightProblem } from "../plan/types.js";
import type { ClusterSnapshot } from "./cluster.js";

/** Storage plugin types whose volumes cannot become base volumes (no `template` feature). */
const NO_TEMPLATE = new Set(["lvm", "iscsi", "iscsidirect"]);

function conversions(guest: GuestPlan): Array<{ kind: GuestType; volumes: TemplateVolume[] }> {
  return guest.steps.flatMap((s) =>
    s.calls.flatMap((c) => (c.intent.op === "template" ? [{ kind: c.intent.kind, volumes: c.intent.volumes ?? [] }] : [])),
  );
}

function named(volume: TemplateVolume): string {
  return volume.volume !== undefined ? `'${volume.volume}' (${volume.slot})` : `${volume.slot} on ${volume.storage}`;
}

/** Problems (containers) and plan warnings (VMs, added to the guest's plan) of the plan's conversions. */
export function checkTemplates(cluster: ClusterSnapshot, guests: GuestPlan[]): PreflightProblem[] {
  const problems: PreflightProblem[] = [];
  for (const guest of guests) {
    for (const { kind, volumes } of conversions(guest)) {
      const typeOf = (storage: string) => cluster.storages.find((s) => s.node === guest.node && s.storage === storage)?.type;
      const unable = volumes.filter((v) => NO_TEMPLATE.has(typeOf(v.storage) ?? ""));
      for (const volume of unable) {
        const why = `storage ${volume.storage} (${typeOf(volume.storage)}) cannot hold base volumes`;
        if (GUEST_KINDS[kind].rules.templateRefusesOrdinaryVolumes) {
          problems.push({
            kind: "template",
            guest: guest.key,
            message:
              `Template feature is not available for ${named(volume)}: ${why}, and PVE refuses to convert the container. ` +
              "Put the volume on LVM-thin, ZFS, RBD, btrfs or a directory storage (its storage: in the spec moves it first), or leave template out",
          });
        } else {
          guest.warnings.push(
            `${named(volume)} stays an ordinary volume when the VM becomes a template: ${why}, so PVE converts the VM but not that disk, ` +
              "and the template can only be full-cloned (full: true). Put the disk on LVM-thin, ZFS, RBD, btrfs or a directory storage to link clones to it",
          );
        }
      }
    }
  }
  return problems;
}
