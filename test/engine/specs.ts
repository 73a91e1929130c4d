// Spec texts the engine tests use (the simulator's default cluster: pve1..pve3, vmbr0/vmbr1,
// storages local, local-lvm and shared).
export const TWO_WEB = `
version: 1
vms:
  - vmid: 201
    name: web1
    node: pve1
    power: running
    cores: 2
    memory: 2G
    ostype: l26
    scsihw: virtio-scsi-single
    agent: true
    tags: [web, production]
    disks:
      scsi0: { storage: local-lvm, size: 16G, discard: on, iothread: true, ssd: true }
    nics:
      net0: { bridge: vmbr0, firewall: true }
  - name: web2
    node: pve2
    cores: 1
    memory: 1G
    disks:
      scsi0: { storage: local-lvm, size: 8G }
    cdroms:
      ide2: { iso: "local:iso/debian-13-netinst.iso" }
    nics:
      net0: { bridge: vmbr0 }
      net1: { bridge: vmbr1, tag: 20 }
`;

/**
 * `vms:` entries without vmids (found by name + ownership tag), spread over pve1..pve3, each
 * with a 1 GiB disk and one NIC: what the identity and kill tests create in bulk.
 */
export function vmsWithoutVmids(names: string[]): string {
  return names
    .map(
      (name, i) => `
  - name: ${name}
    node: pve${(i % 3) + 1}
    memory: 512
    disks:
      scsi0: { storage: local-lvm, size: 1G }
    nics:
      net0: { bridge: vmbr0 }`,
    )
    .join("");
}

/**
 * `containers:` entries without vmids, spread over pve1..pve3, each with a 1 GiB rootfs on
 * local-lvm and one NIC: what the kill test creates in bulk.
 */
export function containersWithoutVmids(names: string[]): string {
  return names
    .map(
      (name, i) => `
  - hostname: ${name}
    node: pve${(i % 3) + 1}
    ostemplate: "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst"
    memory: 512
    rootfs: { storage: local-lvm, size: 1G }
    nics:
      net0: { name: eth0, bridge: vmbr0, ip: dhcp }`,
    )
    .join("");
}
