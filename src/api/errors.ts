// The one error type the client throws. Its message is already the text for a person (what
// failed, on which object, why, what to do next); the fields let programs branch on it, and
// classify() says what the failure means for a retry (api/classify.ts reads PVE's words).
import { PvectlError } from "../util/errors.js";
import { classifyPveFailure, type PveFailureClass } from "./classify.js";

export type PveErrorKind = "http" | "permission" | "auth" | "connection" | "tls" | "timeout" | "task" | "config";

export interface PermissionFailure {
  /** ACL path, e.g. `/vms/100`. */
  path: string;
  /** Privilege, e.g. `VM.Audit`; several joined by `|` when any one of them would do. */
  privilege: string;
}

export interface TaskFailure {
  upid: string;
  exitstatus: string;
  logTail: string[];
}

export interface PveErrorInit {
  kind: PveErrorKind;
  message: string;
  method?: string;
  path?: string;
  status?: number;
  pveMessage?: string;
  paramErrors?: Record<string, string>;
  permission?: PermissionFailure;
  task?: TaskFailure;
  /** TLS failures: SHA-256 fingerprint of the certificate the server presented. */
  serverFingerprint?: string;
  /** Low-level error code (ECONNREFUSED, DEPTH_ZERO_SELF_SIGNED_CERT ...). */
  code?: string;
}

export class PveError extends PvectlError {
  readonly kind: PveErrorKind;
  readonly method?: string;
  readonly path?: string;
  readonly status?: number;
  readonly pveMessage?: string;
  readonly paramErrors?: Record<string, string>;
  readonly permission?: PermissionFailure;
  readonly task?: TaskFailure;
  readonly serverFingerprint?: string;
  readonly code?: string;

  constructor(init: PveErrorInit) {
    super(init.message);
    this.name = "PveError";
    this.kind = init.kind;
    if (init.method !== undefined) this.method = init.method;
    if (init.path !== undefined) this.path = init.path;
    if (init.status !== undefined) this.status = init.status;
    if (init.pveMessage !== undefined) this.pveMessage = init.pveMessage;
    if (init.paramErrors !== undefined) this.paramErrors = init.paramErrors;
    if (init.permission !== undefined) this.permission = init.permission;
    if (init.task !== undefined) this.task = init.task;
    if (init.serverFingerprint !== undefined) this.serverFingerprint = init.serverFingerprint;
    if (init.code !== undefined) this.code = init.code;
  }

  /** Lock held, digest refused, already exists, permission, transient ... (see api/classify.ts). */
  classify(): PveFailureClass {
    return classifyPveFailure(this);
  }
}

/** A lock refusal in PVE's words (`VM is locked (backup)`), for a wait on it that gave up: classify() sees the lock. */
export function lockHeldError(lock: string, message: string): PveError {
  return new PveError({ kind: "http", status: 500, pveMessage: `VM is locked (${lock})`, message });
}

export function isPveError(err: unknown): err is PveError {
  return err instanceof PveError;
}

const PERMISSION_CHECK = /^Permission check failed \((.*)\)\s*$/s;

/**
 * PVE words a failed ACL check as `Permission check failed (/vms/100, VM.Audit)`; other forms
 * (`user != root@pam`, `pool 'x' does not exist`) carry no (path, privilege) pair.
 */
export function parsePermissionFailure(message: string): PermissionFailure | undefined {
  const inner = PERMISSION_CHECK.exec(message.trim())?.[1];
  if (!inner) return undefined;
  const comma = inner.lastIndexOf(", ");
  if (comma < 0) return undefined;
  const path = inner.slice(0, comma).trim();
  const privilege = inner.slice(comma + 2).trim();
  if (!path.startsWith("/") || !/^[A-Za-z.|]+$/.test(privilege)) return undefined;
  return { path, privilege };
}
