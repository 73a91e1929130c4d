// The article's VM as a pvectl spec entry (q35, OVMF with an EFI disk, a 16G disk, the netinst
// ISO, the agent, onboot, a tag): the provisioning comparison creates it, the start-up benchmark
// validates a spec of thousands of it.

/** One `vms:` entry of the article's VM. */
export function articleVmYaml(name: string, vmid: number, node: string): string {
  return `
  - name: ${name}
    vmid: ${vmid}
    node: ${node}
    power: running
    cores: 2
    memory: 2048
    machine: q35
    bios: ovmf
    ostype: l26
    scsihw: virtio-scsi-single
    efidisk: { storage: local-lvm, format: raw, efitype: 4m, preEnrolledKeys: true }
    boot: [scsi0, sata0]
    agent: { enabled: true, fstrimClonedDisks: true }
    onboot: true
    tags: [production]
    disks:
      scsi0: { storage: local-lvm, size: 16G, discard: on, ssd: true }
    cdroms:
      sata0: { iso: "local:iso/debian-13-netinst.iso" }
    nics:
      net0: { bridge: vmbr0 }`;
}
