// The desired state read from spec files, after validation and normalization. This is what
// the engine consumes: every value here has already been checked (slots, enums, ranges, the
// escape hatch against PVE's schema) and put in one canonical shape (sizes in bytes, memory in
// MiB, tags sorted, drives keyed by slot). Nothing in this file talks to a cluster.
//
// Identity rule: a VM is identified by its vmid. When a spec gives no vmid, the name is the
// identity *within its connection*: the engine looks the name up in the cluster and refuses to
// guess when several guests share it. A name is otherwise only a label.
import type { GuestSections } from "../../resources/index.js";
import type { ObjectSections } from "../../resources/objects.js";

import type { SourceLocation } from "../../resources/spec-section/issues.js";
export type { SourceLocation };

/**
 * The result of loading one or more spec files. Each registered guest kind (resources/index.ts)
 * has its entries under its section key, every file's in file order, empty when no file writes
 * any: `vms` (VmSpec, `kind: "vm"`) and `containers` (ContainerSpec, `kind: "container"`). Each
 * registered object family (resources/objects.ts) has its section under its key (`backupJobs`,
 * `access`): present when any file writes it (even empty), absent otherwise (then that family
 * is not managed).
 */
export interface SpecDocument extends GuestSections, ObjectSections {
  /** The files that were read, in the order given. */
  files: string[];
  /** Named cluster connections declared by the specs (secrets only referenced, never inline). */
  connections: Record<string, ConnectionSpec>;
}

/**
 * A cluster connection as written in a spec. Secrets are never stored here: only the name of
 * the environment variable or the path of the file that holds them.
 */
export interface ConnectionSpec {
  name: string;
  host: string;
  port?: number;
  /** e.g. "automation@pve" */
  user?: string;
  /** Token name only (the part after `!`), e.g. "pvectl". */
  tokenId?: string;
  /** Name of the environment variable holding the password. */
  passwordEnv?: string;
  /** Path of a file holding the password (first line used). */
  passwordFile?: string;
  /** Name of the environment variable holding the API token secret. */
  tokenSecretEnv?: string;
  /** Path of a file holding the API token secret (first line used). */
  tokenSecretFile?: string;
  /** SHA-256 fingerprint of the server certificate to pin ("AB:CD:..."), upper case. */
  fingerprint?: string;
  /** Path of a PEM CA bundle that signs the cluster's certificate. */
  caPath?: string;
  /** Default true. `false` is allowed but loud. */
  validateCerts?: boolean;
  source: SourceLocation;
}

// The kinds' spec models, re-exported where library users have always imported them from.
export type { GuestState as VmState, PowerState } from "../../resources/spec-section/guest-base.js";
export type {
  AgentSpec,
  CdromSpec,
  CloudInitSpec,
  ContainerSpec,
  CtMountSpec,
  CtNicSpec,
  CtSecretRef,
  DeviceSection,
  DiskOptions,
  DiskSpec,
  DriveOptionValue,
  EfiDiskSpec,
  IpConfigSpec,
  NicSpec,
  TpmSpec,
  VmSpec,
} from "../../resources/index.js";
export { describeVm } from "../../resources/index.js";
