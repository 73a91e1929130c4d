// `pvectl access needs`: the privileges the specs' operations can need, per ACL path (text,
// --json, or --format spec: an `access:` section granting exactly that). `pvectl access check
// --token ID`: what that token (or user) lacks of it, read from PVE as the running identity.
// With `-c netbox.yaml`, the same for `netbox sync`, `serve` and `decommission` (access-netbox.ts).
import type { Command } from "commander";
import {
  type AccessCheck,
  type AccessNeeds,
  type AclSubject,
  accessSpec,
  checkAccess,
  checkAuthId,
  type NeedsOptions,
  specAccessNeeds,
} from "../../app/access.js";
import { type NetboxAccessNeeds, netboxAccessNeeds } from "../../app/access-netbox.js";
import type { SpecGuests } from "../../app/plan-spec.js";
import { GROUP_ID_RE, REALM_RULE, tokenIdProblem, userIdProblem } from "../../app/access-ids.js";
import { readSpecGuests } from "../../app/spec-target.js";
import { safeLine } from "../../util/safe-text.js";
import { renderCheck, renderNeeds } from "../render/access.js";
import { specYaml } from "../render/spec-yaml.js";
import { checkNetboxConfig, netboxConfigOf, refusingNetboxConfigs, renderNetboxPermissions } from "./access-netbox.js";
import { addSecretPolicyOptions, openSpecTarget, type SpecFlags, specOf, UsageError } from "./plan.js";

interface NeedsFlags extends SpecFlags {
  json?: boolean;
  format?: string;
  role?: string;
  token?: string;
  user?: string;
  group?: string;
  snapshots?: boolean;
  backupStorage?: string[];
  netboxConfig?: string;
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function needsOptions(flags: NeedsFlags): NeedsOptions {
  return { ...(flags.snapshots ? { snapshots: true } : {}), ...(flags.backupStorage ? { backupStorages: flags.backupStorage } : {}) };
}

/** The specs' guests on one connection, read offline (`access needs` contacts no cluster). */
async function offlineSpec(positional: string[], flags: NeedsFlags): Promise<SpecGuests> {
  const files = [...(flags.file ?? []), ...positional];
  if (files.length === 0)
    throw new UsageError("no spec file given", "usage: pvectl access needs web.yaml [more.yaml ...], or -c netbox.yaml for netbox sync");
  return refusingNetboxConfigs(files, "needs", () => readSpecGuests(files, flags.connection));
}

const DEFAULT_ROLE = "Deploy";
const ROLE_ID = /^[A-Za-z][A-Za-z0-9.\-_]*$/;
// The access section takes role ids of at most 64 characters; the longest suffix is 7 (Storage).
const ROLE_MAX = 64 - "Storage".length;

/** The subject as the access section's parser takes it, so the output passes `pvectl validate`. */
function checkSubject(subject: AclSubject): void {
  const [flag, id, problem, rule] =
    "token" in subject
      ? ["--token", subject.token, tokenIdProblem(subject.token), `user@realm!name, e.g. deploy@pve!ci (realm and name: ${REALM_RULE})`]
      : "user" in subject
        ? ["--user", subject.user, userIdProblem(subject.user), `user@realm, e.g. deploy@pve (realm: ${REALM_RULE})`]
        : [
            "--group",
            subject.group,
            GROUP_ID_RE.test(subject.group) ? undefined : "not a group id",
            "letters, digits, '.', '-' and '_', e.g. web-team",
          ];
  if (problem !== undefined)
    throw new UsageError(`${flag} '${safeLine(id)}' is not an id PVE accepts there: ${safeLine(problem)}`, `write ${rule}`);
}

function checkRole(role: string): void {
  if (!ROLE_ID.test(role))
    throw new UsageError(
      `--role '${safeLine(role)}' is not a PVE role id`,
      "a letter, then letters, digits, '.', '-' or '_', e.g. --role WebDeploy",
    );
  if (role.length > ROLE_MAX)
    throw new UsageError(
      `--role '${role}' is too long`,
      `at most ${ROLE_MAX} characters: the roles for storages, bridges and cluster paths add a suffix (DeployStorage), and PVE takes at most 64`,
    );
  // PVE keeps role ids starting with PVE (any case) for its built-in roles.
  if (/^pve/i.test(role))
    throw new UsageError(
      `--role '${role}' starts with PVE, which PVE keeps for its built-in roles`,
      "pick another name, e.g. --role WebDeploy",
    );
}

function subjectOf(flags: NeedsFlags): AclSubject {
  const given = [flags.token && { token: flags.token }, flags.user && { user: flags.user }, flags.group && { group: flags.group }].filter(
    (s): s is AclSubject => Boolean(s),
  );
  if (given.length !== 1) {
    throw new UsageError(
      given.length === 0 ? "--format spec needs the ACL subject" : "give only one of --token, --user, --group",
      "e.g. pvectl access needs web.yaml --format spec --token deploy@pve!ci (or --user deploy@pve, --group web-team)",
    );
  }
  const subject = given[0]!;
  checkSubject(subject);
  return subject;
}

/** A NetBox config's needs carry the NetBox token's permissions too: in JSON, in text after PVE's, as comments in a spec. */
function printNeeds(needs: AccessNeeds | NetboxAccessNeeds, flags: NeedsFlags): void {
  const format = flags.json ? "json" : (flags.format ?? "text");
  const netbox = "netbox" in needs ? needs : undefined;
  if (format === "json") {
    process.stdout.write(
      `${JSON.stringify({ paths: needs.paths, notes: needs.notes, ...(netbox ? { netbox: netbox.netbox } : {}) }, null, 2)}\n`,
    );
    return;
  }
  if (format === "spec") {
    const role = flags.role ?? DEFAULT_ROLE;
    checkRole(role);
    const spec = accessSpec(needs.paths, role, subjectOf(flags));
    const comments = [...needs.notes, ...(netbox ? renderNetboxPermissions(netbox).trimEnd().split("\n") : [])];
    process.stdout.write(`${comments.map((n) => `# ${safeLine(n)}\n`).join("")}${specYaml({ access: spec })}`);
    return;
  }
  if (format !== "text") throw new UsageError(`unknown --format '${format}'`, "use text, json or spec");
  process.stdout.write(`${renderNeeds(needs)}${netbox ? renderNetboxPermissions(netbox) : ""}`);
}

function printCheck(check: AccessCheck, json: boolean, source?: string): void {
  if (json)
    process.stdout.write(
      `${JSON.stringify({ subject: check.subject, ok: check.missing.length === 0, holdsNothing: check.holdsNothing, missing: check.missing, notes: check.needs.notes }, null, 2)}\n`,
    );
  else process.stdout.write(renderCheck(check, source));
}

export function registerAccessCommand(program: Command): void {
  const access = program
    .command("access")
    .description("least privilege: what the specs or a NetBox sync config need (needs), what a token lacks (check)");
  access
    .command("needs")
    .description(
      "the privileges every operation of the specs can need, per ACL path (reads no cluster); with -c, those of netbox sync, serve and decommission",
    )
    .argument("[files...]", "spec files")
    .option("-f, --file <path...>", "spec file(s)")
    .option(
      "-c, --netbox-config <file>",
      "a NetBox sync config instead of specs: the PVE privileges its records' guests need on every cluster and platform, and the NetBox token's object permissions",
    )
    .option("--connection <name>", "only the guests of this spec connection (with -c: the clusters on it)")
    .option(
      "--format <format>",
      "text (the default), json, or spec: an access: section with custom roles and ACL entries granting exactly that",
    )
    .option("--json", "same as --format json")
    .option(
      "--role <name>",
      "the custom role's id in --format spec, at most 57 characters (roles for storages, bridges and cluster paths get a suffix: DeployStorage ...)",
      DEFAULT_ROLE,
    )
    .option("--token <id>", "--format spec: the ACL subject, a token (user@realm!name)")
    .option("--user <id>", "--format spec: the ACL subject, a user (user@realm)")
    .option("--group <id>", "--format spec: the ACL subject, a group")
    .option(
      "--snapshots",
      "include snapshot create, delete and rollback for every guest (pvectl snapshot); without it only guests with snapshots: retention",
    )
    .option("--backup-storage <id>", "include backup run and restore to this storage (repeatable)", collect)
    .action(async (files: string[], flags: NeedsFlags) => {
      if (flags.netboxConfig === undefined) {
        printNeeds(specAccessNeeds(await offlineSpec(files, flags), needsOptions(flags)), flags);
        return;
      }
      const config = await netboxConfigOf(flags.netboxConfig, [...(flags.file ?? []), ...files], "needs");
      printNeeds(
        netboxAccessNeeds(config, { ...needsOptions(flags), ...(flags.connection !== undefined ? { connection: flags.connection } : {}) }),
        flags,
      );
    });
  addSecretPolicyOptions(access.command("check"))
    .description(
      "what a token (or user) lacks of what the specs (or, with -c, a NetBox sync config) need, per path; exit 1 when anything is missing",
    )
    .argument("[files...]", "spec files")
    .option("-f, --file <path...>", "spec file(s)")
    .option(
      "-c, --netbox-config <file>",
      "a NetBox sync config instead of specs: checks the PVE privileges of netbox sync, serve and decommission on the connection of its clusters (NetBox's own permissions are listed by access needs -c, not checked)",
    )
    .requiredOption(
      "--token <id>",
      "the token (user@realm!name) or user (user@realm) to check; pvectl runs as its own connection, which must be that user or hold Sys.Audit on /access",
    )
    .option("--connection <name>", "only the guests of this spec connection")
    .option("--json", "the result as JSON ({ subject, ok, missing })")
    .option("--snapshots", "include snapshot operations for every guest (as access needs)")
    .option("--backup-storage <id>", "include backup run and restore to this storage (repeatable)", collect)
    .action(async (files: string[], flags: NeedsFlags & { token: string }) => {
      checkAuthId(flags.token);
      if (flags.netboxConfig !== undefined) {
        const config = await netboxConfigOf(flags.netboxConfig, [...(flags.file ?? []), ...files], "check");
        const check = await checkNetboxConfig(config, flags.token, flags.connection, needsOptions(flags));
        printCheck(check, flags.json === true, "netbox sync, serve and decommission with this config");
        if (check.missing.length > 0) process.exitCode = 1;
        return;
      }
      const target = await refusingNetboxConfigs([...(flags.file ?? []), ...files], "check", () =>
        openSpecTarget(files, flags, "access check"),
      );
      try {
        const check = await checkAccess(target.client, specOf(target), flags.token, needsOptions(flags));
        printCheck(check, flags.json === true);
        if (check.missing.length > 0) process.exitCode = 1;
      } finally {
        await target.client.close();
      }
    });
}
