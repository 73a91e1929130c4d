// The journey's estate: what a small team's first day looks like, every guest feature at once.
// Two teams, each with its pool: team-a runs a template and its linked clones (cloud-init
// addresses) and a database VM with a data disk; team-b a cloud-init VM and a container, backed
// up nightly. NetBox records add VMs with addresses from a prefix. One spec file, as committed.
import { CLOUD_INIT_CONFIG } from "../netbox/fixtures.js";

export const TOKEN = "deploy@pve!ci";
export const NETBOX_TOKEN = "netbox@pve!sync";

const KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHB2ZWN0bC1kZW1vLWtleS1vbmx5LW5vdC1hLXJlYWwh ops@example.com";

/** The estate on its first day. `change` gives day two's edit of it (see estateSpec). */
export interface EstateDay {
  /** a-db1's cores (day two raises them). */
  dbCores: number;
  /** The storage of a-db1's data disk (day two moves it to a ZFS pool). */
  dbDataStorage: string;
}

export const DAY_ONE: EstateDay = { dbCores: 2, dbDataStorage: "local-lvm" };
export const DAY_TWO: EstateDay = { dbCores: 4, dbDataStorage: "tank" };

export function estateSpec(day: EstateDay): string {
  return `version: 1
vms:
  - vmid: 9100
    name: tpl-a
    node: pve1
    pool: team-a
    template: true
    memory: 1G
    ostype: l26
    scsihw: virtio-scsi-single
    disks:
      scsi0: { storage: local-lvm, size: 4G }
    nics:
      net0: { bridge: vmbr0 }
    cloudInit: { storage: local-lvm, user: debian }
  - vmid: 311
    name: a-app1
    node: pve1
    pool: team-a
    power: running
    clone: { from: tpl-a }
    cores: 2
    memory: 2G
    tags: [app]
    disks:
      scsi0: { storage: local-lvm, size: 8G }
    cloudInit:
      storage: local-lvm
      user: debian
      sshKeys: ["${KEY}"]
      ipconfig:
        ipconfig0: { ip: 10.0.10.31/24, gw: 10.0.10.1 }
  - vmid: 312
    name: a-app2
    node: pve1
    pool: team-a
    power: running
    clone: { from: tpl-a }
    tags: [app]
    cloudInit:
      storage: local-lvm
      user: debian
      ipconfig:
        ipconfig0: { ip: 10.0.10.32/24, gw: 10.0.10.1 }
  - vmid: 313
    name: a-db1
    node: pve2
    pool: team-a
    power: running
    cores: ${day.dbCores}
    memory: 4G
    tags: [db]
    disks:
      scsi0: { storage: local-lvm, size: 8G }
      scsi1: { storage: ${day.dbDataStorage}, size: 16G }
    nics:
      net0: { bridge: vmbr0, tag: 10 }
    cdroms:
      ide2: { iso: "local:iso/debian-13-netinst.iso" }
  - vmid: 321
    name: b-web1
    node: pve2
    pool: team-b
    power: running
    memory: 1G
    tags: [web]
    disks:
      scsi0: { storage: local-lvm, size: 4G }
    nics:
      net0: { bridge: vmbr1 }
    cloudInit:
      storage: local-lvm
      user: debian
      sshKeys: ["${KEY}"]
      ipconfig:
        ipconfig0: { ip: 10.0.20.21/24, gw: 10.0.20.1 }
containers:
  - vmid: 322
    hostname: b-cache1
    node: pve3
    pool: team-b
    power: running
    ostemplate: "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst"
    memory: 512
    tags: [cache]
    sshPublicKeys: ["${KEY}"]
    rootfs: { storage: local-lvm, size: 4G }
    nics:
      net0: { bridge: vmbr1, ip: 10.0.20.22/24, gw: 10.0.20.1 }
backupJobs:
  - id: team-b-nightly
    schedule: "02:30"
    selection: { pool: team-b }
    storage: local
`;
}

/**
 * The pools and the NetBox builder's token, which root applies before handing over (PVE has no
 * pool until someone makes it; NetBox's guests live outside the teams' pools).
 */
export const PLATFORM_ACCESS = `access:
  pools:
    - { id: team-a, comment: team A }
    - { id: team-b, comment: team B }
`;

/**
 * The NetBox mapping of the journey: the NetBox tests' mapping of the simulator's demo records
 * with cloud-init on the Ubuntu platform (addresses per VLAN go into the guests), built on pve3.
 */
export const NETBOX_CONFIG = CLOUD_INIT_CONFIG.replace("    node: pve1\n", "    node: pve3\n");
