// Turns a spec's connection (or, when a VM names none, the PROXMOX_* environment variables)
// into the options of PveClient. Secrets are read here, at the last moment, from the variable
// or file the spec names, and only as the secret policy allows (secret-policy.ts: specs are
// untrusted); they never appear in a message.
import { readFileSync } from "node:fs";
import { clientOptionsFromEnv, PveError, type PveClientOptions } from "../api/index.js";
import { plainHttpRefusal } from "../api/options.js";
import { allowedSecretFile, DEFAULT_SECRET_POLICY, envVariableRefusal, type SecretPolicy } from "./secret-policy.js";
import type { ConnectionSpec, SpecDocument } from "./spec/model.js";
import { PvectlError } from "../util/errors.js";

/** A connection that cannot be used as written; says which one, why and what to do. */
export class ConnectionError extends PvectlError {
  readonly kind = "connection-config";

  constructor(message: string) {
    super(message);
    this.name = "ConnectionError";
  }
}

function label(connection: ConnectionSpec): string {
  const { file, line, column } = connection.source;
  return `connection \`${connection.name}\` (${file}:${line}:${column})`;
}

function fromEnv(connection: ConnectionSpec, field: string, variable: string, env: NodeJS.ProcessEnv, policy: SecretPolicy): string {
  const refusal = envVariableRefusal(variable, connection, policy, env);
  if (refusal) throw new ConnectionError(`${label(connection)}: ${field}: refusing to read ${refusal}`);
  const value = env[variable];
  if (value === undefined || value.trim() === "") {
    throw new ConnectionError(
      `${label(connection)}: ${field} names the environment variable ${variable}, which is not set (or empty); export it before running pvectl`,
    );
  }
  return value.trim();
}

function fromFile(connection: ConnectionSpec, field: string, path: string, policy: SecretPolicy): string {
  const allowed = allowedSecretFile(path, connection.source.file, policy);
  if ("refusal" in allowed) throw new ConnectionError(`${label(connection)}: ${field}: refusing to read ${allowed.refusal}`);
  let text: string;
  try {
    if ("missing" in allowed) throw allowed.missing;
    text = readFileSync(allowed.real, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const reason = code === "ENOENT" ? "it does not exist" : code === "EACCES" ? "permission denied" : "it cannot be read";
    throw new ConnectionError(`${label(connection)}: ${field} ${path} cannot be used: ${reason}`);
  }
  // The first line holds the secret: files written by `echo` end with a newline.
  const secret = (text.split(/\r?\n/)[0] ?? "").trim();
  if (secret === "") throw new ConnectionError(`${label(connection)}: ${field} ${path} is empty; its first line must hold the secret`);
  return secret;
}

function checkTransport(connection: ConnectionSpec, policy: SecretPolicy): void {
  let refusal: string | undefined;
  try {
    refusal = plainHttpRefusal({
      host: connection.host,
      ...(connection.port !== undefined ? { port: connection.port } : {}),
      allowHttp: policy.allowHttp,
    });
  } catch (err) {
    throw new ConnectionError(`${label(connection)}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (refusal) throw new ConnectionError(`${label(connection)}: refusing to connect: ${refusal}`);
}

/**
 * The client options of a spec connection, reading its secret from the environment or a file.
 * The policy is checked before each secret is read, and any refusal throws before a client
 * exists: a refused connection sends nothing.
 */
export function connectionOptions(
  connection: ConnectionSpec,
  env: NodeJS.ProcessEnv = process.env,
  policy: SecretPolicy = DEFAULT_SECRET_POLICY,
): PveClientOptions {
  checkTransport(connection, policy);
  const options: PveClientOptions = { host: connection.host, ...(policy.allowHttp ? { allowHttp: true } : {}) };
  if (connection.port !== undefined) options.port = connection.port;
  if (connection.user !== undefined) options.user = connection.user;
  if (connection.tokenId !== undefined) options.tokenId = connection.tokenId;
  if (connection.tokenSecretEnv !== undefined)
    options.tokenSecret = fromEnv(connection, "tokenSecretEnv", connection.tokenSecretEnv, env, policy);
  if (connection.tokenSecretFile !== undefined)
    options.tokenSecret = fromFile(connection, "tokenSecretFile", connection.tokenSecretFile, policy);
  if (connection.passwordEnv !== undefined) options.password = fromEnv(connection, "passwordEnv", connection.passwordEnv, env, policy);
  if (connection.passwordFile !== undefined) options.password = fromFile(connection, "passwordFile", connection.passwordFile, policy);
  if (connection.validateCerts !== undefined) options.validateCerts = connection.validateCerts;
  if (connection.caPath !== undefined) options.caPath = connection.caPath;
  if (connection.fingerprint !== undefined) options.fingerprint = connection.fingerprint;
  return options;
}

/**
 * The client options for a connection name of a spec; `undefined` means "the default": the
 * PROXMOX_* environment variables (PROXMOX_HOST, PROXMOX_USER, PROXMOX_TOKEN_ID ...).
 */
export function resolveConnection(
  spec: Pick<SpecDocument, "connections">,
  name: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  policy: SecretPolicy = DEFAULT_SECRET_POLICY,
): PveClientOptions {
  if (name === undefined) {
    try {
      const options = clientOptionsFromEnv(env);
      if (policy.allowHttp) options.allowHttp = true;
      const refusal = plainHttpRefusal(options);
      if (refusal) throw new ConnectionError(`PROXMOX_HOST: refusing to connect: ${refusal}`);
      return options;
    } catch (err) {
      if (err instanceof PveError) {
        throw new ConnectionError(
          `${err.message} (the spec names no connection, so pvectl reads the PROXMOX_* environment variables; or define one under \`connections:\`)`,
        );
      }
      throw err;
    }
  }
  const connection = spec.connections[name];
  if (!connection) {
    const known = Object.keys(spec.connections).sort();
    throw new ConnectionError(
      `connection \`${name}\` is not defined in the spec${known.length > 0 ? ` (defined: ${known.join(", ")})` : ""}`,
    );
  }
  return connectionOptions(connection, env, policy);
}
