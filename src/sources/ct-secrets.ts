// Where a container's root password may come from. The same rules as a connection's secrets
// (secret-policy.ts: a spec is untrusted, so it names only variables with an allowed prefix and
// files in its own directory tree or a --secrets-dir), and one more: a password goes into the
// container, so it may not be a connection's credential (PROXMOX_PASSWORD, a connection's
// passwordEnv or token secret file) — that would copy the cluster's credential into a guest.
import { resolve } from "node:path";
import { PvectlError } from "../util/errors.js";
import { allowedSecretFile, envPrefixRefusal, isEnvConnectionSecret, type SecretPolicy } from "./secret-policy.js";
import type { ContainerSpec, SpecDocument } from "./spec/index.js";
import { describeCt } from "./spec/index.js";

/** A container password source the policy refuses; says which container, why and what to do. */
export class ContainerSecretError extends PvectlError {
  readonly kind = "connection-config";

  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
    this.name = "ContainerSecretError";
  }
}

function connectionSecrets(spec: Pick<SpecDocument, "connections">): { envs: Set<string>; files: Set<string> } {
  const envs = new Set<string>();
  const files = new Set<string>();
  for (const c of Object.values(spec.connections)) {
    for (const env of [c.passwordEnv, c.tokenSecretEnv]) if (env !== undefined) envs.add(env);
    for (const file of [c.passwordFile, c.tokenSecretFile]) if (file !== undefined) files.add(resolve(file));
  }
  return { envs, files };
}

function label(ct: ContainerSpec): string {
  const { file, line, column } = ct.source;
  return `${describeCt(ct)} (${file}:${line}:${column})`;
}

/** Why the policy refuses one container's password source, or undefined. */
function refusal(ct: ContainerSpec, own: { envs: Set<string>; files: Set<string> }, policy: SecretPolicy): string | undefined {
  const ref = ct.password;
  if (ref === undefined) return undefined;
  if ("env" in ref) {
    if (isEnvConnectionSecret(ref.env) || own.envs.has(ref.env)) {
      return `${label(ct)}: passwordEnv: refusing to read ${ref.env}: it is a connection's credential, and a container's root password would copy it into the guest. Give the container a variable of its own (e.g. PVE_CT_ROOT_PASSWORD)`;
    }
    const prefix = envPrefixRefusal(ref.env, policy);
    return prefix ? `${label(ct)}: passwordEnv: refusing to read ${prefix}` : undefined;
  }
  if (own.files.has(resolve(ref.file))) {
    return `${label(ct)}: passwordFile: refusing to read ${ref.file}: it is a connection's credential, and a container's root password would copy it into the guest. Give the container a file of its own`;
  }
  const allowed = allowedSecretFile(ref.file, ct.source.file, policy);
  return "refusal" in allowed ? `${label(ct)}: passwordFile: refusing to read ${allowed.refusal}` : undefined;
}

/** Throws ContainerSecretError listing every container whose password source the policy refuses. */
export function checkContainerSecrets(spec: Pick<SpecDocument, "connections" | "containers">, policy: SecretPolicy): void {
  const own = connectionSecrets(spec);
  const problems = spec.containers.flatMap((ct) => refusal(ct, own, policy) ?? []);
  if (problems.length > 0) throw new ContainerSecretError(problems);
}
