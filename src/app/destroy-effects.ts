// What a destroy (DELETE .../{vmid} with purge=1, as pvectl sends it) takes with it and what it
// leaves, said on the destroy step of each guest (Step.notes), from what qemu-server's and
// pve-container's destroy do:
// - the volumes the config references go, and with them every snapshot (a snapshot lives in its
//   volumes; a VM snapshot's saved RAM is a volume the destroy frees too);
// - purge removes the vmid from every backup job: from a job's vmid list (a job left naming no
//   guest is deleted) or from its exclusions; and it removes the guest's HA resource;
// - backup archives are never touched: they stay on their storages;
// - a volume named for the vmid that the config does not reference stays (pvectl does not send
//   destroy-unreferenced-disks).
// Only what is true for that guest is said; a read this user may not make is said as such.
import { get } from "../api/endpoints/call.js";
import { getGuestSnapshots, getStorageContent } from "../api/endpoints/index.js";
import type { PveClient } from "../api/index.js";
import type { StorageInfo } from "../engine/cluster.js";
import type { GuestPlan, Plan, Step } from "../plan/types.js";
import { type LiveBackupJob, readBackupJobs } from "../resources/objects.js";
import { userMessageOf } from "../util/errors.js";

interface SharedReads {
  jobs: LiveBackupJob[];
  haResources: Set<string>;
  storages: StorageInfo[];
}

const ids = (list: string | undefined) =>
  (list ?? "")
    .split(",")
    .filter((v) => v !== "")
    .map(Number);

function jobNotes(jobs: LiveBackupJob[], vmid: number): string[] {
  const notes: string[] = [];
  for (const job of jobs) {
    const listed = ids(job.params.vmid);
    if (listed.includes(vmid)) {
      notes.push(
        listed.length === 1
          ? `purge deletes backup job ${job.id} (it names only this guest)`
          : `purge removes vmid ${vmid} from backup job ${job.id}`,
      );
    } else if (ids(job.params.exclude).includes(vmid)) {
      notes.push(
        `purge removes vmid ${vmid} from the exclusions of backup job ${job.id}: a guest given this vmid later is backed up by it`,
      );
    }
  }
  return notes;
}

/** Storages of `content` the guest's node sees, a shared one once. */
function holders(storages: StorageInfo[], node: string, content: string[]): StorageInfo[] {
  return storages.filter((s) => s.node === node && s.available && s.content.some((c) => content.includes(c)));
}

async function snapshotNotes(
  pve: PveClient,
  type: "qemu" | "lxc",
  node: string,
  vmid: number,
): Promise<{ notes: string[]; stateVolumes: Set<string> }> {
  const snaps = (await getGuestSnapshots(pve, type, node, vmid)).filter((s) => s.name !== "current");
  const notes = snaps.map((s) => `snapshot ${s.name} goes with the volumes${s.vmstate ? " (and its saved RAM)" : ""}`);
  // qemu-server names a snapshot's saved RAM vm-<vmid>-state-<snapshot>; the destroy frees it.
  const stateVolumes = new Set(snaps.filter((s) => s.vmstate).map((s) => `vm-${vmid}-state-${s.name}`));
  return { notes, stateVolumes };
}

async function volumeNotes(
  pve: PveClient,
  reads: SharedReads,
  step: Step,
  node: string,
  vmid: number,
  stateVolumes: Set<string>,
): Promise<string[]> {
  const archives = new Map<string, number>();
  const unreferenced: string[] = [];
  const goes = new Set(step.deletesVolumes ?? []);
  for (const storage of holders(reads.storages, node, ["backup", "images", "rootdir"])) {
    for (const content of storage.content.filter((c) => c === "backup" || c === "images" || c === "rootdir")) {
      for (const v of await getStorageContent(pve, node, storage.storage, { vmid, content })) {
        if (content === "backup") archives.set(storage.storage, (archives.get(storage.storage) ?? 0) + 1);
        else if (!goes.has(v.volid) && !stateVolumes.has(v.volid.split(":")[1] ?? "")) unreferenced.push(v.volid);
      }
    }
  }
  const notes: string[] = [];
  const count = [...archives.values()].reduce((a, b) => a + b, 0);
  if (count > 0) {
    notes.push(
      `keeps its ${count} backup archive${count === 1 ? "" : "s"} (${[...archives.keys()].join(", ")}): a guest given vmid ${vmid} later finds them under its vmid (pvectl backup list shows them as a previous guest's)`,
    );
  }
  for (const volid of unreferenced.sort())
    notes.push(
      `keeps ${volid}: named for vmid ${vmid} but not referenced by its config, so the destroy leaves it (delete it by hand if it is not needed)`,
    );
  return notes;
}

async function guestNotes(pve: PveClient, reads: SharedReads, guest: GuestPlan, step: Step): Promise<string[]> {
  const vmid = guest.vmid!;
  const type = guest.kind === "lxc" ? "lxc" : "qemu";
  const { notes, stateVolumes } = await snapshotNotes(pve, type, guest.node, vmid);
  notes.push(...jobNotes(reads.jobs, vmid));
  const sid = `${type === "lxc" ? "ct" : "vm"}:${vmid}`;
  if (reads.haResources.has(sid)) notes.push(`purge removes HA resource ${sid}`);
  notes.push(...(await volumeNotes(pve, reads, step, guest.node, vmid, stateVolumes)));
  return notes;
}

/** The plan with notes on each destroy step; a read that fails becomes a note saying what is not known. */
export async function noteDestroyEffects(pve: PveClient, plan: Plan, storages: StorageInfo[]): Promise<Plan> {
  const destroying = plan.guests.some((g) => g.vmid !== undefined && g.steps.some((s) => s.action === "destroy"));
  if (!destroying) return plan;
  // Backup jobs and HA resources need Sys.Audit on /: without it the plan says what it could not read.
  const unread: string[] = [];
  const orNote = async <T>(what: string, read: Promise<T>, fallback: T): Promise<T> =>
    read.catch((err) => {
      unread.push(`could not read ${what}, so the plan cannot say what purge changes there: ${userMessageOf(err)}`);
      return fallback;
    });
  const [jobs, ha] = await Promise.all([
    orNote("the backup jobs", readBackupJobs(pve), []),
    orNote("the HA resources", get(pve, "/cluster/ha/resources") as Promise<{ sid?: string }[]>, []),
  ]);
  const reads: SharedReads = { jobs, haResources: new Set(ha.map((r) => String(r.sid))), storages };
  const guests: GuestPlan[] = [];
  for (const guest of plan.guests) {
    const steps: Step[] = [];
    for (const step of guest.steps) {
      if (step.action !== "destroy" || guest.vmid === undefined) {
        steps.push(step);
        continue;
      }
      let notes: string[];
      try {
        notes = [...(await guestNotes(pve, reads, guest, step)), ...unread];
      } catch (err) {
        notes = [`could not read what else the destroy takes or leaves (snapshots, backup jobs, archives): ${userMessageOf(err)}`];
      }
      steps.push(notes.length > 0 ? { ...step, notes } : step);
    }
    guests.push({ ...guest, steps });
  }
  return { ...plan, guests };
}
