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
export const CLOUD_INIT_CONFIG = DEMO_CONFIG.replace("    image: local:import/noble.qcow2\n", "    image: local:import/noble.qcow2\n    cloudInit: {}\n");
