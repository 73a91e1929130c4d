// Registers every guest-model route (nodes, storage, cluster, QEMU, LXC, backups, pools).
import type { Router } from "../contract.js";
import { registerAgentHandlers } from "./agent.js";
import { registerBackupHandlers } from "./backup.js";
import { registerCloudinitHandlers } from "./cloudinit.js";
import { registerClusterHandlers } from "./cluster.js";
import { registerDiskHandlers } from "./qemu-disk.js";
import { registerCloneHandlers } from "./qemu-clone.js";
import { registerGuestConfig } from "./guest-config.js";
import { registerGuestDestroy } from "./guest-destroy.js";
import { registerGuestStatus } from "./guest-status.js";
import { registerFeatureHandlers } from "./feature.js";
import { registerHaHandlers } from "./ha.js";
import { registerIndexHandlers } from "./indexes.js";
import { registerLxcHandlers } from "./lxc.js";
import { registerMigrateHandlers } from "./migrate.js";
import { registerNetworkConfigHandlers } from "./network-config.js";
import { registerNodeHandlers } from "./nodes.js";
import { registerPoolHandlers } from "./pools.js";
import { registerQemuCreate } from "./qemu-create.js";
import { registerQemuPower } from "./qemu-power.js";
import { registerSnapshotHandlers } from "./snapshots.js";
import { registerStorageHandlers } from "./storage.js";

export function registerGuestHandlers(router: Router): void {
  registerNodeHandlers(router);
  registerClusterHandlers(router);
  registerStorageHandlers(router);
  registerQemuCreate(router);
  registerGuestConfig(router);
  registerGuestStatus(router);
  registerQemuPower(router);
  registerGuestDestroy(router);
  registerPoolHandlers(router);
  registerDiskHandlers(router);
  registerCloneHandlers(router);
  registerSnapshotHandlers(router);
  registerAgentHandlers(router);
  registerLxcHandlers(router);
  registerBackupHandlers(router);
  registerMigrateHandlers(router);
  registerCloudinitHandlers(router);
  registerIndexHandlers(router);
  registerFeatureHandlers(router);
  registerHaHandlers(router);
  registerNetworkConfigHandlers(router);
}
