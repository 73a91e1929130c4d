// The simulated cluster's state. Plain data (JSON round-trips through --state files).

export type GuestType = "qemu" | "lxc";
export type ConfigValue = string | number;
export type GuestConfig = Record<string, ConfigValue>;

export interface NodeState {
  name: string;
  online: boolean;
  cpus: number;
  /** bytes */
  memory: number;
  /** bytes of the root file system */
  rootDisk: number;
  bridges: string[];
  /** seconds since the epoch the node booted */
  bootTime: number;
  ip: string;
  /** /etc/network/interfaces once edited through the API (until then derived from `bridges`). */
  network?: NodeNetwork;
}

/** One interface stanza as PVE's INotify parser returns it (iface name is the key). */
export type NetIface = Record<string, string | number | string[]>;

export interface NodeNetwork {
  current: Record<string, NetIface>;
  /** interfaces.new: edits not yet applied by PUT /nodes/{node}/network. */
  pending?: Record<string, NetIface>;
}

export type StorageType = "dir" | "btrfs" | "lvmthin" | "nfs" | "lvm" | "zfspool" | "rbd" | "cifs";

export interface StorageState {
  id: string;
  type: StorageType;
  content: string[];
  shared: boolean;
  /** Nodes the storage is available on (all nodes when undefined). */
  nodes?: string[];
  /** capacity in bytes (per node for local storage) */
  total: number;
  path?: string;
  enabled: boolean;
  /** storage.cfg `prune-backups` (retention applied after each backup and by prunebackups). */
  pruneBackups?: string;
}

/** What a vzdump archive holds: the guest's config and the size of each backed-up disk. */
export interface BackupContent {
  type: GuestType;
  config: GuestConfig;
  /** disk key -> bytes and the storage/format it came from */
  disks: Record<string, { size: number; storage: string; format: string }>;
}

export interface VolumeState {
  volid: string;
  storage: string;
  /** Node holding the volume; undefined on shared storages. */
  node?: string;
  content: string;
  format: string;
  size: number;
  ctime: number;
  vmid?: number;
  /** Base volume of a linked clone. */
  parent?: string;
  notes?: string;
  protected?: boolean;
  subtype?: GuestType;
  /** vzdump archives only. */
  backup?: BackupContent;
  /** Bytes the guest snapshots of this volume hold on its storage (see cluster/snapshot-space.ts). */
  snapshotUsed?: number;
}

export interface SnapshotState {
  name: string;
  description: string;
  snaptime: number;
  vmstate: boolean;
  parent?: string;
  /** The snapshot's own config section (no description, lock or unusedN; `vmstate: <volid>` when RAM was saved). */
  config: GuestConfig;
  /** volid -> bytes this snapshot holds on the volume's storage (released on delete). */
  pinned?: Record<string, number>;
}

export interface GuestState {
  vmid: number;
  type: GuestType;
  node: string;
  config: GuestConfig;
  /** Pending values (QEMU only: applied at next start when the guest runs). */
  pending: GuestConfig;
  /** Pending deletions: key -> force. */
  pendingDelete: Record<string, boolean>;
  snapshots: SnapshotState[];
  status: "running" | "stopped";
  /** running | paused | prelaunch | suspended (QEMU's qmpstatus). */
  qmpstatus: string;
  startedAt?: number;
  /** Cloud-init values baked into the cloud-init drive at the last start or regeneration. */
  cloudinit?: GuestConfig;
  /** The cloud-init values a running VM applied: its drive's content when it last booted. */
  cloudinitBooted?: GuestConfig;
  /** Seconds after start until the guest agent answers. */
  agentDelay: number;
  /** HA resource state (started, stopped, disabled, ignored) when the guest is HA-managed. */
  hastate?: string;
  /** Other options of the HA resource as set (comment, group, max_restart, max_relocate, failback). */
  haOptions?: GuestConfig;
  /** The simulated HA manager's view of this resource (manager_status `service_status`). */
  haService?: HaServiceState;
}

/** One entry of the HA manager's service status, plus a command it has not acted on yet. */
export interface HaServiceState {
  /** CRM state: started, stopped, request_stop, migrate, relocate, recovery, error. */
  state: string;
  /** Set while a migrate/relocate runs. */
  target?: string;
  /** 1 once the LRM reported the start (PVE clears it while starting). */
  running?: number;
  /** A queued crm command (`migrate`/`relocate` and its target node). */
  cmd?: [string, string];
  /** What the simulated LRM is doing for it right now (start, stop, migrate, relocate); not shown. */
  inflight?: string;
}

/** An HA rule (PVE 9 /etc/pve/ha/rules.cfg section); `nodes` as node -> priority. */
export interface HaRuleState {
  rule: string;
  type: "node-affinity" | "resource-affinity";
  resources: string[];
  nodes?: Record<string, number>;
  strict?: number;
  affinity?: string;
  disable?: number;
  comment?: string;
}

export interface PoolState {
  poolid: string;
  comment?: string;
  vmids: number[];
  storages: string[];
}

export type BackupJob = Record<string, ConfigValue> & { id: string };

export interface ClusterState {
  clusterName: string;
  /** Salt for deterministic per-guest facts (agent addresses, metrics). */
  salt: string;
  nodes: NodeState[];
  storages: StorageState[];
  volumes: VolumeState[];
  guests: GuestState[];
  pools: PoolState[];
  backupJobs: BackupJob[];
  /** Datacenter MAC prefix. */
  macPrefix: string;
  /** Seconds after start until a new VM's guest agent answers. */
  agentDelay: number;
  /** Datacenter security groups (cluster.fw `[group NAME]` sections), absent until the first one. */
  firewallGroups?: FirewallGroupState[];
  /** SDN zones, vnets and subnets, edited and applied; absent until the first edit. */
  sdn?: SdnState;
  /** HA rules in file order (PVE 9 ha/rules.cfg); absent until the first. */
  haRules?: HaRuleState[];
  /** datacenter.cfg options set through PUT /cluster/options (mac_prefix is `macPrefix`); absent until the first. */
  datacenterOptions?: Record<string, string | number>;
  /** Storage replication jobs (replication.cfg); absent until the first. */
  replicationJobs?: ReplicationJob[];
}

/** One replication job (replication.cfg `local: <guest>-<jobnum>`), with its run state (pvesr's state file). */
export interface ReplicationJob {
  id: string;
  type: "local";
  guest: number;
  jobnum: number;
  target: string;
  /** The node the guest was on when the job was created or last moved (PVE sets it). */
  source: string;
  schedule?: string;
  rate?: number;
  comment?: string;
  disable?: number;
  /** Marked for removal: the next run removes the job (and, with `full`, the target's copies). */
  remove_job?: "local" | "full";
  /** Simulated clock when the job was created: its first run is its schedule's next event after this. */
  created: number;
  /** Simulated clock of the removal mark. */
  removeMarked?: number;
}

/** One firewall rule as PVE stores it: type, action and the optional match fields. */
export type FirewallRule = Record<string, string | number>;

export interface FirewallGroupState {
  group: string;
  comment?: string;
  /** In evaluation order: position 0 first. */
  rules: FirewallRule[];
}

/** One SDN section (zone, vnet or subnet): its options by key, `type` included. */
export type SdnSection = Record<string, string | number>;

/** SDN objects of one kind by id (like /etc/pve/sdn/zones.cfg). */
export type SdnSections = Record<string, SdnSection>;

export interface SdnConfig {
  zones: SdnSections;
  vnets: SdnSections;
  subnets: SdnSections;
}

/** The edited config and what `PUT /cluster/sdn` last applied (PVE's .running-config). */
export interface SdnState extends SdnConfig {
  running?: SdnConfig & { version: number };
}
