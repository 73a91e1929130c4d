// The contract between the engine and a guest kind. The engine plans, checks and runs calls
// without knowing what a kind's keys mean: it asks the kind through this interface. A new
// kind (containers) is a folder under resources/ that implements it, plus a line in
// `GUEST_KINDS`.
import type { CallIntent, GuestType } from "../plan/intent.js";
import type { ApiCall, PrivilegeNeed } from "../plan/types.js";
import type { ApiReader, GuestConfig, PendingEntry } from "../api/endpoints/index.js";

export interface GuestKind {
  type: GuestType;
  /** Reads one guest of this kind back (its endpoints). */
  read: {
    config(api: ApiReader, node: string, vmid: number): Promise<GuestConfig>;
    pending(api: ApiReader, node: string, vmid: number): Promise<PendingEntry[]>;
    /** Run state: `running` or `stopped`. */
    status(api: ApiReader, node: string, vmid: number): Promise<{ status?: string }>;
  };
  /** The worker type PVE starts for a call (`qmcreate`, `qmconfig` ...), to find a task whose answer was lost. */
  taskType(call: ApiCall): string | undefined;
  /** Whether a call's effect is in the guest as its pending listing shows it (read back after a lost answer). */
  landed(call: ApiCall, guest: { vmid: number; node: string }, pending: PendingEntry[]): boolean;
  /** Privileges PVE checks inside the handler, beyond the endpoint's schema check. */
  callNeeds(intent: CallIntent, vmPath: string): PrivilegeNeed[];
}
