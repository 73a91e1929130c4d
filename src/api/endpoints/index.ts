// Typed endpoint wrappers: one function per PVE endpoint pvectl uses, grouped by area. Each
// fills the path template (segments URL-encoded) and returns the answer typed from the
// schema, or in a precise shape the wrapper defines where the schema's is too loose.
export type { ApiReader, ApiWriter, EnvelopeReader } from "./call.js";
export { getPermissions, type PermissionMap } from "./access.js";
export {
  type AclEntry,
  getAcl,
  getGroups,
  getPoolMemberCount,
  getRoles,
  getUsersFull,
  revealedSecret,
  type GroupEntry,
  type RoleEntry,
  type TokenEntry,
  type UserEntry,
} from "./access-objects.js";
export {
  type BackupJobEntry,
  type ClusterResource,
  type ClusterStatusEntry,
  type DatacenterOptions,
  getBackupJobs,
  getClusterResources,
  getClusterStatus,
  getDatacenterOptions,
  getNextVmid,
  isVmidFree,
} from "./cluster.js";
export { getHaResources, getHaRules, type HaResourceEntry, type HaRuleEntry } from "./ha.js";
export { getLxcConfig, getLxcPending, getLxcStatus, type LxcStatus } from "./lxc.js";
export { getNodeNetwork, type NodeInterface } from "./nodes.js";
export { getPools, type Pool } from "./pools.js";
export {
  type AgentInterface,
  type ConfigValue,
  type GuestConfig,
  getNodeQemuList,
  getQemuAgentInterfaces,
  getQemuConfig,
  getGuestFeature,
  getGuestSnapshotConfig,
  getQemuPending,
  getQemuStatus,
  type PendingEntry,
  type QemuListEntry,
  type QemuStatus,
  updateQemuConfig,
} from "./qemu.js";
export { getArchiveConfig, getNotBackedUp, getPruneMarks, type NotBackedUp, type PruneMark } from "./backup.js";
export { getGuestSnapshots, type ListedSnapshot } from "./snapshots.js";
export { getNodeStorages, getStorageContent, type NodeStorageStatus, type StorageVolume } from "./storage.js";
export {
  getNodeTasks,
  getTaskLog,
  getTaskStatus,
  type ListedTask,
  type TaskLogPage,
  type TaskStatus,
  taskStatusPath,
} from "./tasks.js";
