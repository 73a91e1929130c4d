// Directory indexes PVE answers for intermediate paths (clients walk them, e.g. proxmoxer).
import type { GuestType } from "../cluster/types.js";
import type { HandlerContext, Router } from "../contract.js";
import { nodeParam, pathGuest, sim, str } from "./context.js";

const QEMU_SUBDIRS = [
  "config",
  "pending",
  "cloudinit",
  "unlink",
  "vncproxy",
  "termproxy",
  "migrate",
  "resize",
  "move",
  "rrd",
  "rrddata",
  "monitor",
  "agent",
  "snapshot",
  "spiceproxy",
  "sendkey",
  "firewall",
];
const LXC_SUBDIRS = [
  "config",
  "pending",
  "status",
  "vncproxy",
  "termproxy",
  "vncwebsocket",
  "spiceproxy",
  "migrate",
  "clone",
  "rrd",
  "rrddata",
  "firewall",
  "snapshot",
  "resize",
  "interfaces",
];
const QEMU_STATUS = ["current", "start", "stop", "reset", "shutdown", "suspend", "reboot", "resume"];
const LXC_STATUS = ["current", "start", "stop", "shutdown", "suspend", "resume", "reboot"];
const AGENT_COMMANDS = [
  "exec",
  "exec-status",
  "file-read",
  "file-write",
  "fsfreeze-freeze",
  "fsfreeze-status",
  "fsfreeze-thaw",
  "fstrim",
  "get-fsinfo",
  "get-host-name",
  "get-memory-block-info",
  "get-memory-blocks",
  "get-osinfo",
  "get-time",
  "get-timezone",
  "get-users",
  "get-vcpus",
  "info",
  "network-get-interfaces",
  "ping",
  "set-user-password",
  "shutdown",
  "suspend-disk",
  "suspend-hybrid",
  "suspend-ram",
];

function subdirs(list: string[]): Array<{ subdir: string }> {
  return list.map((subdir) => ({ subdir }));
}

function guestIndex(type: GuestType) {
  return (ctx: HandlerContext) => {
    pathGuest(ctx, type);
    return subdirs(type === "qemu" ? [...QEMU_SUBDIRS, "status"] : LXC_SUBDIRS);
  };
}

function statusIndex(type: GuestType) {
  return (ctx: HandlerContext) => {
    pathGuest(ctx, type);
    return subdirs(type === "qemu" ? QEMU_STATUS : LXC_STATUS);
  };
}

function agentIndex(ctx: HandlerContext) {
  pathGuest(ctx, "qemu");
  return AGENT_COMMANDS.map((name) => ({ name }));
}

function storageIndex(ctx: HandlerContext) {
  const model = sim(ctx);
  model.requireNode(nodeParam(ctx));
  const id = str(ctx, "storage") ?? "";
  if (!model.state.storages.some((s) => s.id === id)) return [];
  return subdirs(["content", "download-url", "file-restore", "import-metadata", "prunebackups", "rrd", "rrddata", "status", "upload"]);
}

export function registerIndexHandlers(router: Router): void {
  router.add("GET", "/nodes/{node}/qemu/{vmid}", guestIndex("qemu"));
  router.add("GET", "/nodes/{node}/lxc/{vmid}", guestIndex("lxc"));
  router.add("GET", "/nodes/{node}/qemu/{vmid}/status", statusIndex("qemu"));
  router.add("GET", "/nodes/{node}/lxc/{vmid}/status", statusIndex("lxc"));
  router.add("GET", "/nodes/{node}/qemu/{vmid}/agent", agentIndex);
  router.add("GET", "/nodes/{node}/storage/{storage}", storageIndex);
}
