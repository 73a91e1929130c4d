// Grants a token what specs need the way an operator would: `pvectl access needs --format spec`
// of the spec files, the user and the token (with its secretFile) added to that section, and
// `pvectl apply` of it as root, both run as the CLI. The token's secret is then read from the
// file pvectl wrote. The simulator speaks HTTPS (the CLI has no plain-HTTP mode); every client
// here pins its certificate.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse, stringify } from "yaml";
import { PveClient } from "../../src/api/index.js";
import type { AccessSpec } from "../../src/app/access.js";
import { applyPlan } from "../../src/app/apply-plan.js";
import { planSpec } from "../../src/app/plan-spec.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { pvectl, simEnv } from "../support/cli.js";
import { fastApply } from "../support/engine-lab.js";

export interface TlsLab {
  sim: RunningSimulator;
  client: PveClient;
  /** A scratch directory for spec files and the token's secret file. */
  dir: string;
  close(): Promise<void>;
}

function clientOf(sim: RunningSimulator, auth: { user: string; password: string } | { tokenId: string; tokenSecret: string }): PveClient {
  const url = new URL(sim.url);
  return new PveClient({
    host: url.hostname,
    port: Number(url.port),
    ...(sim.fingerprint ? { fingerprint: sim.fingerprint } : {}),
    ...auth,
  });
}

/** A simulator over TLS; `config` is the simulator's cluster config (its defaults when left out). */
export async function startTlsLab(config?: unknown): Promise<TlsLab> {
  const sim = await startSimulator({ port: 0, seed: 7, ...(config !== undefined ? { config } : {}) });
  const client = clientOf(sim, { user: "root@pam", password: sim.rootPassword });
  const dir = mkdtempSync(join(tmpdir(), "pvectl-access-proof-"));
  return {
    sim,
    client,
    dir,
    close: async () => {
      await client.close();
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Granted {
  /** The `access:` section pvectl applied (needs' roles and ACLs, plus the user and token). */
  access: AccessSpec;
  token: PveClient;
  /** The token's id and the secret pvectl wrote, for running the CLI as the token (cliAsToken). */
  tokenId: string;
  secret: string;
}

async function cli(lab: TlsLab, args: string[]): Promise<string> {
  const result = await pvectl(args, simEnv(lab.sim));
  if (result.code !== 0) throw new Error(`pvectl ${args.join(" ")} exited ${result.code}:\n${result.stderr}${result.stdout}`);
  return result.stdout;
}

/**
 * `pvectl access needs --format spec --token TOKEN [--role ROLE] [NEEDS FLAGS] FILES`, the token
 * and its user appended to the section, applied with `pvectl apply --yes` as root; a client of
 * the new token. `flags` are more of access needs' flags (`--snapshots`, `--backup-storage ID`).
 */
export async function grantByPvectl(
  lab: TlsLab,
  files: string[],
  tokenId: string,
  role = "Deploy",
  flags: string[] = [],
): Promise<Granted> {
  const generated = await cli(lab, ["access", "needs", "--format", "spec", "--token", tokenId, "--role", role, ...flags, ...files]);
  const doc = parse(generated) as { access: AccessSpec & Record<string, unknown> };
  const [user, name] = tokenId.split("!") as [string, string];
  doc.access.users = [{ id: user }];
  doc.access.tokens = [{ user, name, secretFile: "./token.secret" }];
  const specFile = join(lab.dir, "access.yaml");
  writeFileSync(specFile, stringify(doc));
  await cli(lab, ["apply", "-f", specFile, "--yes"]);
  const secret = readFileSync(join(lab.dir, "token.secret"), "utf8").trim();
  return { access: doc.access, token: clientOf(lab.sim, { tokenId, tokenSecret: secret }), tokenId, secret };
}

/** `pvectl ARGS` run as the granted token alone; its stdout, or an error with everything it printed unless it exits 0. */
export async function cliAsToken(lab: TlsLab, granted: Granted, args: string[]): Promise<string> {
  const [user, name] = granted.tokenId.split("!") as [string, string];
  const { PROXMOX_PASSWORD: _password, ...tls } = simEnv(lab.sim);
  const result = await pvectl(args, { ...tls, PROXMOX_USER: user, PROXMOX_TOKEN_ID: name, PROXMOX_TOKEN_SECRET: granted.secret });
  if (result.code !== 0)
    throw new Error(`pvectl ${args.join(" ")} as ${granted.tokenId} exited ${result.code}:\n${result.stderr}${result.stdout}`);
  return result.stdout;
}

/**
 * Gives a role of the applied section other privileges with pvectl: a spec listing only that role
 * (the other lists are then not managed), `adopt: true` since PVE cannot remember who made a role.
 */
export async function setRolePrivileges(lab: TlsLab, roleid: string, privileges: string[]): Promise<void> {
  const text = stringify({ access: { roles: [{ id: roleid, privileges, adopt: true }] } });
  const planned = await planSpec(lab.client, parseSpec(text, join(lab.dir, "role.yaml")));
  const report = await applyPlan(lab.client, planned, fastApply);
  if (planned.plan.preflightErrors.length > 0 || !report.ok)
    throw new Error(`setting ${roleid}'s privileges failed: ${JSON.stringify([planned.plan.preflightErrors, report.objects])}`);
}
