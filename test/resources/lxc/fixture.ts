// A container as PVE 9 returns its config, and the spec that matches it, for the lxc tests.
import { liveCtFromConfig } from "../../../src/resources/lxc/read.js";
import type { DesiredCt, LiveCt } from "../../../src/resources/lxc/model.js";

export const GIB = 1024 ** 3;
export const power = { shutdownTimeoutSeconds: 60, forceStop: false };

export function ctConfig(): Record<string, string | number> {
  return {
    arch: "amd64",
    cores: 2,
    hostname: "web1",
    memory: 1024,
    swap: 512,
    nameserver: "10.0.0.53",
    ostype: "debian",
    unprivileged: 1,
    features: "keyctl=1,nesting=1",
    rootfs: "local-lvm:vm-200-disk-0,size=8G",
    mp0: "local-lvm:vm-200-disk-1,mp=/data,backup=1,size=16G",
    mp1: "/srv/shared,mp=/shared,ro=1",
    net0: "name=eth0,bridge=vmbr0,hwaddr=BC:24:11:0A:0B:0C,ip=dhcp,tag=10,type=veth",
    tags: "pvectl;web",
    digest: "d1",
  };
}

export function liveCt(status: "running" | "stopped" = "stopped", config = ctConfig()): LiveCt {
  return liveCtFromConfig({ vmid: 200, node: "pve1", status }, config);
}

export function desiredCt(): DesiredCt {
  return {
    kind: "lxc",
    key: "web1",
    name: "web1",
    vmid: 200,
    node: "pve1",
    ostemplate: "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst",
    options: { cores: "2", memory: "1024", nameserver: "10.0.0.53", unprivileged: "1", features: "keyctl=1,nesting=1" },
    tags: ["web"],
    mounts: [
      { slot: "rootfs", storage: "local-lvm", sizeBytes: 8 * GIB, options: {} },
      { slot: "mp0", storage: "local-lvm", sizeBytes: 16 * GIB, mountpoint: "/data", options: { backup: "1" } },
      { slot: "mp1", bindPath: "/srv/shared", mountpoint: "/shared", options: { ro: "1" } },
    ],
    nics: [{ slot: "net0", name: "eth0", bridge: "vmbr0", options: { ip: "dhcp", tag: "10" } }],
  };
}
