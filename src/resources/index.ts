// The guest kinds the engine can plan and run, by the type a call's intent names.
import type { GuestType } from "../plan/intent.js";
import type { GuestKind } from "./kind.js";
import { qemuKind } from "./qemu/kind.js";

export type { GuestKind } from "./kind.js";

export const GUEST_KINDS: Record<GuestType, GuestKind> = { qemu: qemuKind };
