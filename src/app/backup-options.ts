// What `backup run` and `backup prune` accept, for a caller to check its input against before
// planning: the modes and compressions vzdump takes, PVE's keep-* retention options, and the
// notes template check PVE would otherwise refuse mid-run.
export type { BackupMode } from "../plan/intent.js";
export { notesTemplateProblem } from "../pve/index.js";
export { KEEP_OPTIONS, type KeepOption, type Retention } from "../resources/backup/prune.js";
export { BACKUP_COMPRESSIONS, BACKUP_MODES, type BackupCompression, type BackupRunOptions } from "../resources/backup/run.js";
