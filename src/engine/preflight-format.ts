// Image formats, before anything runs: a disk asked in a format its target storage's type cannot
// hold is refused. PVE refuses such a new disk, but a move falls back to the storage's default
// format (resolve_format_hint), so the disk would never match the spec and every plan would move
// it again. An LVM storage may hold qcow2 (PVE 9's snapshot-as-volume-chain, a setting pvectl
// does not read), so it is left to PVE.
import type { GuestPlan, PreflightProblem } from "../plan/types.js";
import type { ClusterSnapshot } from "./cluster.js";

/** Formats each storage type's plugin holds (pve-storage's plugindata `format`, VM images only). */
const FORMATS: Record<string, string[]> = {
  dir: ["raw", "qcow2", "vmdk"],
  nfs: ["raw", "qcow2", "vmdk"],
  cifs: ["raw", "qcow2", "vmdk"],
  glusterfs: ["raw", "qcow2", "vmdk"],
  btrfs: ["raw"],
  lvmthin: ["raw"],
  zfspool: ["raw"],
  zfs: ["raw"],
  rbd: ["raw"],
};

interface FormatAsk {
  guest: string;
  node: string;
  slot: string;
  storage: string;
  format: string;
}

function asks(guests: GuestPlan[]): FormatAsk[] {
  return guests.flatMap((g) =>
    g.steps.flatMap((s) =>
      s.calls.flatMap(({ intent }) => {
        if (intent.op === "move-volume" && intent.format !== undefined)
          return [{ guest: g.key, node: g.node, slot: intent.slot, storage: intent.storage, format: intent.format }];
        if (intent.op !== "create" && intent.op !== "configure") return [];
        return intent.writes.flatMap((w) =>
          w.as === "drive" && w.newOn !== undefined && w.format !== undefined
            ? [{ guest: g.key, node: g.node, slot: w.key, storage: w.newOn, format: w.format }]
            : [],
        );
      }),
    ),
  );
}

export function checkFormats(cluster: ClusterSnapshot, guests: GuestPlan[]): PreflightProblem[] {
  return asks(guests).flatMap((ask) => {
    const type = cluster.storages.find((s) => s.storage === ask.storage && s.node === ask.node)?.type;
    const holds = type !== undefined ? FORMATS[type] : undefined;
    if (holds === undefined || holds.includes(ask.format)) return [];
    return [
      {
        kind: "storage" as const,
        guest: ask.guest,
        message: `${ask.slot}: storage ${ask.storage} (${type}) cannot hold ${ask.format} images (it holds ${holds.join(", ")}): set format: ${holds[0]}, or put the disk on a file storage`,
      },
    ];
  });
}
