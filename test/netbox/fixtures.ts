// A NetBox config matching the simulator's demo data, for the NetBox tests.
export const DEMO_CONFIG = `
netbox:
  tokenEnv: NETBOX_TOKEN
clusters:
  pve-lab:
    node: pve1
    storage: local-lvm
    bridge: vmbr0
platforms:
  debian-13:
    ostype: l26
    iso: local:iso/debian-13-netinst.iso
  ubuntu-24-04:
    ostype: l26
    image: local:import/noble.qcow2
    agent: true
  windows-2022:
    ostype: win11
    iso: local:iso/windows-2022.iso
    bios: ovmf
tags:
  add: [netbox]
writeBack:
  primaryIp4:
    fallbackPrefix: 10.20.0.0/24
`;

/** The demo mapping with cloud-init on ubuntu-24-04: its records' addresses go into the guest (ipconfigN). */
export const CLOUD_INIT_CONFIG = DEMO_CONFIG.replace(
  "    image: local:import/noble.qcow2\n",
  "    image: local:import/noble.qcow2\n    cloudInit: {}\n",
);

/**
 * The demo mapping with a Windows platform that says what a spec VM would: pre-enrolled EFI
 * keys, TPM 2.0, the virtio driver ISO beside the installer, disk options, NIC model, rng0, onboot.
 */
export const WINDOWS_CONFIG = DEMO_CONFIG.replace(
  "  windows-2022:\n    ostype: win11\n    iso: local:iso/windows-2022.iso\n    bios: ovmf\n",
  `  windows-2022:
    ostype: win11
    iso: local:iso/windows-2022.iso
    bios: ovmf
    scsihw: virtio-scsi-single
    agent: true
    nicModel: e1000
    diskOptions: { discard: true, ssd: true, iothread: true }
    vm:
      machine: q35
      efidisk: { efitype: 4m, preEnrolledKeys: true }
      tpm: { version: v2.0 }
      cdroms:
        ide0: { iso: local:iso/virtio-win.iso }
      disks:
        scsi1: { cache: writeback }
      onboot: true
      tags: [windows]
      extraConfig:
        rng0: source=/dev/urandom
`,
);
