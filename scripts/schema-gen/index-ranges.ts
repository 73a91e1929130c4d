// Real index ranges of the keys PVE's dump collapses into `name[n]`.
// The dump keeps only `net[n]`; the maxima come from the source constants (see
// shared/notes/pve-api-behaviour.md 1.3) and are cross-checked against the raw dump
// (pve-api-rawdump.json), which still lists every `net0..net31`.

export interface IndexRange {
  min: number;
  max: number;
}

type Family = "qemu" | "lxc" | "node-config" | "cluster-config";

const RANGES: Record<Family, Record<string, IndexRange>> = {
  // qemu-server: QemuServer.pm $MAX_NETS, Drive.pm, PCI.pm, USB.pm, Memory.pm, Virtiofs.pm ...
  qemu: {
    net: { min: 0, max: 31 },
    ipconfig: { min: 0, max: 31 },
    ide: { min: 0, max: 3 },
    sata: { min: 0, max: 5 },
    scsi: { min: 0, max: 30 },
    virtio: { min: 0, max: 15 },
    unused: { min: 0, max: 255 },
    hostpci: { min: 0, max: 15 },
    serial: { min: 0, max: 3 },
    parallel: { min: 0, max: 2 },
    usb: { min: 0, max: 13 },
    numa: { min: 0, max: 7 },
    virtiofs: { min: 0, max: 9 },
  },
  // pve-container: LXC/Config.pm
  lxc: {
    net: { min: 0, max: 31 },
    mp: { min: 0, max: 255 },
    unused: { min: 0, max: 255 },
    dev: { min: 0, max: 255 },
  },
  // pve-manager: PVE/NodeConfig.pm (acmedomain0..5), raw dump
  "node-config": { acmedomain: { min: 0, max: 5 } },
  // pve-cluster: corosync link0..7, raw dump
  "cluster-config": { link: { min: 0, max: 7 } },
};

function familyOf(path: string): Family | undefined {
  if (/^\/nodes\/\{node\}\/qemu(\/|$)/.test(path)) return "qemu";
  if (/^\/nodes\/\{node\}\/lxc(\/|$)/.test(path)) return "lxc";
  if (path === "/nodes/{node}/config") return "node-config";
  if (/^\/cluster\/config(\/|$)/.test(path)) return "cluster-config";
  return undefined;
}

/** The index range of `key` (e.g. "net[n]") in an endpoint at `path`, or undefined if unknown. */
export function indexRangeFor(path: string, key: string): IndexRange | undefined {
  const family = familyOf(path);
  if (!family) return undefined;
  return RANGES[family][key.replace(/\[n\]$/, "")];
}
