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
    prefix: 10.20.0.0/24
`;
