// Where a spec connection may take its secrets from and send them to. Specs are untrusted
// input (in CI they come from pull requests, and run with the pipeline's secrets in the
// environment), so a spec can only reach secrets the operator set aside for specs, and send
// them only encrypted. The rules and the threat model: docs/client.md, "Threat model".
import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { basename, dirname, relative, isAbsolute, resolve, sep } from "node:path";
import { endpointOf } from "../api/options.js";
import { PvectlError } from "../util/errors.js";

export const DEFAULT_SECRET_ENV_PREFIXES = ["PROXMOX_", "PVE_"] as const;

/** The environment connection's own secrets: they go only to PROXMOX_HOST. */
const ENV_CONNECTION_SECRETS = new Set(["PROXMOX_PASSWORD", "PROXMOX_TOKEN_SECRET", "PROXMOX_OTP"]);

export interface SecretPolicy {
  /** Plain HTTP to a host that is not loopback (`--allow-http`). */
  allowHttp: boolean;
  /** Real paths of directories secret files may lie in, besides each spec file's own (`--secrets-dir`). */
  secretsDirs: string[];
  /** Prefixes of the environment variables a spec may name (`--secret-env-prefix`). */
  secretEnvPrefixes: string[];
}

export const DEFAULT_SECRET_POLICY: SecretPolicy = {
  allowHttp: false,
  secretsDirs: [],
  secretEnvPrefixes: [...DEFAULT_SECRET_ENV_PREFIXES],
};

/** A policy option the operator gave that cannot work; the CLI turns it into a usage error. */
export class SecretPolicyError extends PvectlError {
  /** The CLI gives it as a usage error; anyone else sees `--json` kind `error`. */
  readonly kind = "error";

  constructor(message: string) {
    super(message);
    this.name = "SecretPolicyError";
  }
}

/** The policy from the operator's options; directories must exist, prefixes must be variable-name prefixes. */
export function secretPolicy(options: { allowHttp?: boolean; secretsDirs?: string[]; secretEnvPrefixes?: string[] }): SecretPolicy {
  const secretsDirs = (options.secretsDirs ?? []).map((dir) => {
    try {
      return realpathSync(dir);
    } catch {
      throw new SecretPolicyError(`--secrets-dir ${dir} does not exist (or cannot be read); give a directory that holds the secret files`);
    }
  });
  const prefixes = options.secretEnvPrefixes ?? [...DEFAULT_SECRET_ENV_PREFIXES];
  for (const prefix of prefixes) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(prefix)) {
      throw new SecretPolicyError(
        `--secret-env-prefix '${prefix}' is not the start of an environment variable name (letters, digits and _, at least one character); e.g. --secret-env-prefix PVE_`,
      );
    }
  }
  return { allowHttp: options.allowHttp ?? false, secretsDirs, secretEnvPrefixes: prefixes };
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function inside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/**
 * The real path of a secret file a spec names, or why it may not be read: after following
 * every link, it must lie in the directory of the spec file that names it, or in a
 * `--secrets-dir`. That rules out `..`, absolute paths elsewhere and links pointing out.
 */
export function allowedSecretFile(
  path: string,
  specFile: string,
  policy: SecretPolicy,
): { real: string } | { refusal: string } | { missing: NodeJS.ErrnoException } {
  const specDir = realOrSelf(dirname(resolve(specFile)));
  const allowed = (p: string) => [specDir, ...policy.secretsDirs].some((dir) => inside(dir, p));
  let real: string;
  try {
    real = realpathSync(path);
  } catch (err) {
    // Whether a file outside exists is not the spec's business either.
    if (allowed(realOrSelf(dirname(resolve(path))))) return { missing: err as NodeJS.ErrnoException };
    real = resolve(path);
  }
  if (allowed(real)) return { real };
  return {
    refusal:
      `${path}: it is outside the spec's directory ${specDir}${real !== path ? ` (it leads to ${real})` : ""}, and a spec may only read secret files in its own directory tree. ` +
      "Move the file there, or allow its directory with --secrets-dir DIR",
  };
}

/**
 * Why pvectl may not write `path` on behalf of the spec file `specFile` (a new API token's
 * `secretFile`), or undefined: the same rule as for reading, applied to where the file would
 * land. The directory is followed through every link (a symlinked directory leads where it
 * points), and a link already at `path` counts as where it points; so `..`, an absolute path
 * elsewhere and a link out are all refused.
 */
export function writtenFileRefusal(path: string, specFile: string, policy: SecretPolicy): string | undefined {
  const specDir = realOrSelf(dirname(resolve(specFile)));
  const lands = whereWritten(path);
  if ([specDir, ...policy.secretsDirs].some((dir) => inside(dir, lands))) return undefined;
  const allowed = [specDir, ...policy.secretsDirs].join(", ");
  return (
    `${path}: it would be written to ${lands}, outside ${allowed}; pvectl writes files for a spec only in the spec file's own directory tree or a --secrets-dir. ` +
    "Name a file there (a relative path without ..), or allow its directory with --secrets-dir DIR"
  );
}

/** Where a file written at `path` would land: its directory's real path, or where a link already there points (dangling too). */
function whereWritten(path: string): string {
  let target = resolve(path);
  try {
    if (lstatSync(target).isSymbolicLink()) target = resolve(dirname(target), readlinkSync(target));
  } catch {
    // Nothing there yet: the file lands in its directory.
  }
  return resolve(realOrSelf(dirname(target)), basename(target));
}

/** Why a spec may not read this environment variable at all (its prefix), or undefined. */
export function envPrefixRefusal(variable: string, policy: SecretPolicy): string | undefined {
  if (policy.secretEnvPrefixes.some((prefix) => variable.startsWith(prefix))) return undefined;
  return (
    `${variable}: it does not start with an allowed prefix (${policy.secretEnvPrefixes.join(", ")}), and a spec may only read variables set aside for specs. ` +
    `Rename the variable (e.g. PVE_${variable}), or allow its prefix with --secret-env-prefix (which replaces the defaults; repeat it to keep them)`
  );
}

/** The PROXMOX_* connection's own secrets (PROXMOX_PASSWORD ...). */
export function isEnvConnectionSecret(variable: string): boolean {
  return ENV_CONNECTION_SECRETS.has(variable);
}

/** Why a spec connection may not read this environment variable, or undefined. */
export function envVariableRefusal(
  variable: string,
  target: { host: string; port?: number },
  policy: SecretPolicy,
  env: NodeJS.ProcessEnv,
): string | undefined {
  const prefix = envPrefixRefusal(variable, policy);
  if (prefix) return prefix;
  if (!ENV_CONNECTION_SECRETS.has(variable)) return undefined;
  // PROXMOX_PASSWORD & co. belong to the PROXMOX_HOST connection: a spec may not redirect them.
  const configured = env.PROXMOX_HOST?.trim()
    ? safeOrigin({ host: env.PROXMOX_HOST, ...(env.PROXMOX_PORT ? { port: Number(env.PROXMOX_PORT) } : {}) })
    : undefined;
  const origin = safeOrigin(target);
  if (configured !== undefined && configured === origin) return undefined;
  return (
    `${variable}: it is the secret of the PROXMOX_* connection (${configured ?? "PROXMOX_HOST is not set"}), which goes only to PROXMOX_HOST, not to ${origin ?? target.host}. ` +
    "Give this connection a variable of its own (e.g. PVE_<NAME>_TOKEN_SECRET)"
  );
}

function safeOrigin(options: { host: string; port?: number }): string | undefined {
  try {
    return endpointOf(options).origin;
  } catch {
    return undefined;
  }
}
