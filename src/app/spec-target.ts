// What a use case over a spec starts from: the spec files, the one connection of this run, the
// spec's guests and object families' sections on it, the operator's secret policy, and a client. Input
// that cannot work (no file, two clusters at once, a secret source the policy refuses) is refused
// here, before any client exists: nothing is sent.
import { PveClient } from "../api/index.js";
import type { SelectedSpecGuest } from "../engine/selection.js";
import type { GuestType } from "../plan/intent.js";
import { kindOfSpec } from "../resources/index.js";
import { type ObjectSections, objectSectionEntries, objectSectionsOn, specSectionKeys, writtenFilesOf } from "../resources/objects.js";
import { resolveConnection } from "../sources/connections.js";
import { checkContainerSecrets } from "../sources/ct-secrets.js";
import { type SecretPolicy, SecretPolicyError, secretPolicy } from "../sources/secret-policy.js";
import type { ContainerSpec, SpecDocument, VmSpec } from "../sources/spec/index.js";
import { loadSpecFiles } from "../sources/spec/index.js";
import { checkWrittenFiles } from "../sources/written-files.js";
import type { SpecGuests } from "./plan-spec.js";
import { UsageError } from "./usage-error.js";

export interface SpecTarget {
  spec: SpecDocument;
  files: string[];
  connection?: string;
  /** The spec's guests on this run's one connection. */
  vms: VmSpec[];
  containers: ContainerSpec[];
  /**
   * Each object family's section on this connection, by section key (resources/objects.ts):
   * absent when the spec does not declare it (the family is not managed); a declared section
   * with no entry on this connection is an empty list.
   */
  objects: ObjectSections;
  /** The operator's secret policy (a container's root password is read by it when the create is sent). */
  policy: SecretPolicy;
  client: PveClient;
}

export interface SpecTargetRequest {
  files: string[];
  /** Only the spec's guests and objects of this connection; needed when the spec uses several. */
  connection?: string;
  /** The secret policy (docs/client.md, "Threat model"). */
  allowHttp?: boolean;
  secretsDirs?: string[];
  secretEnvPrefixes?: string[];
}

/** What a use case plans from its target: guests and the object families' sections. */
export function specOf(target: SpecTarget): SpecGuests {
  return { vms: target.vms, containers: target.containers, ...target.objects };
}

function policyOf(request: SpecTargetRequest): SecretPolicy {
  try {
    return secretPolicy({
      allowHttp: request.allowHttp ?? false,
      ...(request.secretsDirs ? { secretsDirs: request.secretsDirs } : {}),
      ...(request.secretEnvPrefixes ? { secretEnvPrefixes: request.secretEnvPrefixes } : {}),
    });
  } catch (err) {
    if (err instanceof SecretPolicyError) throw new UsageError(err.message, 'see docs/client.md, "Threat model: specs are untrusted"');
    throw err;
  }
}

/** The spec files of a use case, its one connection, and a client for it; `command` names it in the hints. */
export async function openSpecTarget(request: SpecTargetRequest, command: string): Promise<SpecTarget> {
  const { files } = request;
  const policy = policyOf(request);
  if (files.length === 0) throw new UsageError("no spec file given", `usage: pvectl ${command} -f web.yaml [-f more.yaml]`);
  const spec = await loadSpecFiles(files);
  const onConnection = <G extends { connection?: string }>(guests: G[]): G[] =>
    request.connection === undefined ? guests : guests.filter((g) => g.connection === request.connection);
  const vms = onConnection(spec.vms);
  const containers = onConnection(spec.containers);
  const objects = objectSectionsOn(spec, request.connection);
  const entries = [...vms, ...containers, ...objectSectionEntries(objects)];
  const names = [...new Set(entries.map((g) => g.connection ?? "(PROXMOX_* environment)"))];
  if (names.length > 1) {
    throw new UsageError(
      `the spec uses ${names.length} connections (${names.join(", ")}); pvectl works on one cluster at a time`,
      `add --connection NAME to pick one, e.g. pvectl ${command} --connection ${names.find((n) => !n.startsWith("(")) ?? "NAME"} ...`,
    );
  }
  const connection = request.connection ?? entries[0]?.connection;
  // Refused password sources fail before any client exists: nothing is sent.
  checkContainerSecrets({ connections: spec.connections, containers }, policy);
  // So do files the spec would have written outside what the operator allows.
  checkWrittenFiles(writtenFilesOf(objects), policy);
  const client = new PveClient(resolveConnection(spec, connection, process.env, policy));
  return {
    spec,
    files,
    ...(connection !== undefined ? { connection } : {}),
    vms,
    containers,
    objects,
    policy,
    client,
  };
}

/**
 * The spec's guests and object families' sections on one connection (all of them when
 * `connection` is absent), read offline: no connection is resolved and no client made (`access needs`).
 */
export async function readSpecGuests(files: string[], connection?: string): Promise<SpecGuests> {
  const spec = await loadSpecFiles(files);
  const on = <G extends { connection?: string }>(guests: G[]): G[] =>
    connection === undefined ? guests : guests.filter((g) => g.connection === connection);
  return { vms: on(spec.vms), containers: on(spec.containers), ...objectSectionsOn(spec, connection) };
}

/** The top-level keys that declare what a spec manages: the guests' sections and each object family's (a file with none of them is no spec). */
export function specContentKeys(): string[] {
  return ["vms", "containers", ...specSectionKeys()];
}

/** The spec's guests on the target's connection, as a guest selection names them (`--name`, `--vmid` pick among these). */
export function selectedSpecGuests(target: Pick<SpecTarget, "vms" | "containers">): SelectedSpecGuest[] {
  return [
    ...target.vms.map((vm) => selected(vm, kindOfSpec("vm").type)),
    ...target.containers.map((ct) => selected(ct, kindOfSpec("container").type)),
  ];
}

function selected(guest: { name: string; vmid?: number; node?: string; adopt?: boolean }, kind: GuestType): SelectedSpecGuest {
  return {
    name: guest.name,
    kind,
    ...(guest.vmid !== undefined ? { vmid: guest.vmid } : {}),
    ...(guest.node !== undefined ? { node: guest.node } : {}),
    ...(guest.adopt === true ? { adopt: true } : {}),
  };
}
