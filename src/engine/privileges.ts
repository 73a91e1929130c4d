// The privileges a step needs. The endpoint's own check comes from the schema
// (`permissions.check`); create and config updates check more, per key and value, inside
// PVE's handler (qemu-server `$check_vm_modify_config_perm`), so those facts are listed here.
import { isCdrom, isCloudinitDrive, isVmDriveKey } from "../pve/index.js";
import { bridgeOf, newVolumeStorage } from "../resources/formats.js";
import { matchEndpoint } from "../schema/index.js";
import type { ApiCall, RequiredPrivilege, Step } from "../plan/types.js";

const KEY_PRIVILEGE: Array<[RegExp, string]> = [
  [/^(cores|cpu|cpulimit|cpuunits|numa\d*|smp|sockets|vcpus|affinity)$/, "VM.Config.CPU"],
  [/^(memory|balloon|shares|allow-ksm)$/, "VM.Config.Memory"],
  [/^(acpi|hotplug|kvm|machine|scsihw|smbios1|tablet|vga|watchdog|audio0|rng0)$/, "VM.Config.HWType"],
  [
    /^(agent|autostart|bios|description|keyboard|localtime|migrate_downtime|migrate_speed|name|onboot|ostype|protection|reboot|startdate|startup|tdf|template|tags)$/,
    "VM.Config.Options",
  ],
  [/^(boot|bootdisk|vmstatestorage)$/, "VM.Config.Disk"],
  [/^net\d+$/, "VM.Config.Network"],
];
const CLOUDINIT_KEY = /^(ciuser|cipassword|citype|ciupgrade|cicustom|sshkeys|nameserver|searchdomain|ipconfig\d+)$/;
/** Keys that are not config values (call parameters). */
const NOT_CONFIG = new Set(["node", "vmid", "digest", "delete", "force", "revert", "skiplock", "start", "pool", "storage", "background_delay"]);

type Need = Omit<RequiredPrivilege, "stepId">;

/** Privileges for writing config key `key` = `value` on guest path `vmPath`. */
function keyNeeds(key: string, value: string, vmPath: string): Need[] {
  if (CLOUDINIT_KEY.test(key)) {
    return [{ path: vmPath, privilege: "VM.Config.Cloudinit", anyOf: ["VM.Config.Cloudinit", "VM.Config.Network"] }];
  }
  const needs: Need[] = [];
  const isDrive = isVmDriveKey(key);
  // The drive's own parser says what it is, so a volume merely named like an option is not misread.
  const cloudinit = isDrive && isCloudinitDrive(value);
  if (isDrive && isCdrom(value) && !cloudinit) {
    needs.push({ path: vmPath, privilege: "VM.Config.CDROM" });
  } else if (cloudinit) {
    needs.push({ path: vmPath, privilege: "VM.Config.Cloudinit", anyOf: ["VM.Config.Cloudinit", "VM.Config.CDROM"] });
  } else {
    const privilege = isDrive ? "VM.Config.Disk" : (KEY_PRIVILEGE.find(([re]) => re.test(key))?.[1] ?? "VM.Config.Options");
    needs.push({ path: vmPath, privilege });
  }
  const storage = isDrive ? newVolumeStorage(value) : undefined;
  if (storage) needs.push({ path: `/storage/${storage}`, privilege: "Datastore.AllocateSpace" });
  if (/^net\d+$/.test(key)) {
    const bridge = bridgeOf(key, value);
    if (bridge) {
      // PVE accepts SDN.Use on the bridge or on the bridge's VLAN; the bridge covers both.
      needs.push({ path: `/sdn/zones/localnetwork/${bridge}`, privilege: "SDN.Use" });
    }
  }
  return needs;
}

/** Evaluates the schema's `check` expression into the privileges it demands. */
function checkNeeds(check: unknown[], params: Record<string, string>): Need[][] {
  const [op, ...rest] = check as [string, ...unknown[]];
  if (op === "perm") {
    const [template, privs, mode] = rest as [string, string[], string?];
    const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => params[name] ?? `{${name}}`);
    if (mode === "any") return [[{ path, privilege: privs[0]!, anyOf: privs }]];
    return [privs.map((privilege) => ({ path, privilege }))];
  }
  if (op === "and") return [rest.flatMap((c) => checkNeeds(c as unknown[], params).flat())];
  // "or": the first alternative is reported; evaluation accepts any of them.
  if (op === "or") return checkNeeds(rest[0] as unknown[], params);
  return [];
}

/** Every privilege one API call of a step needs. */
export function callNeeds(call: ApiCall): Need[] {
  const match = matchEndpoint(call.method, call.path);
  const params: Record<string, string> = {};
  for (const [k, v] of Object.entries(match?.pathParams ?? {})) params[k] = v;
  for (const [k, v] of Object.entries(call.params)) params[k] = String(v);
  const vmid = params.vmid ?? "{vmid}";
  const vmPath = `/vms/${vmid}`;
  const needs: Need[] = [];
  const check = match?.endpoint.permissions?.check;
  if (check) needs.push(...checkNeeds(check, params).flat());

  const isCreate = call.method === "POST" && /^\/nodes\/[^/]+\/qemu$/.test(call.path);
  const isConfig = /\/qemu\/[^/]+\/config$/.test(call.path) && call.method !== "GET";
  if (isCreate) {
    needs.push(
      params.pool ? { path: `/pool/${params.pool}`, privilege: "VM.Allocate", anyOf: ["VM.Allocate"] } : { path: vmPath, privilege: "VM.Allocate" },
    );
    // Creating into a pool also modifies the pool (qemu-server: check_perm_modify on /pool/<id>).
    if (params.pool) needs.push({ path: `/pool/${params.pool}`, privilege: "Pool.Allocate", anyOf: ["Pool.Allocate", "Permissions.Modify"] });
    if (params.start === "1") needs.push({ path: vmPath, privilege: "VM.PowerMgmt" });
  }
  if (isCreate || isConfig) {
    for (const [key, value] of Object.entries(call.params)) {
      if (NOT_CONFIG.has(key)) continue;
      needs.push(...keyNeeds(key, String(value), vmPath));
    }
    if (isConfig && params.delete) {
      for (const key of params.delete.split(",")) needs.push(...keyNeeds(key, "", vmPath));
    }
  }
  // PUT /pools with vms=: PVE also checks each guest (`check_perm_modify` on /vms/<vmid>).
  if (call.path === "/pools" && call.method === "PUT" && params.vms) {
    for (const id of params.vms.split(/[,; ]+/).filter((v) => v !== "")) {
      needs.push({ path: `/vms/${id}`, privilege: "VM.Allocate", anyOf: ["VM.Allocate", "Permissions.Modify"] });
    }
  }
  if (/\/move_disk$/.test(call.path) && params.storage) {
    needs.push({ path: `/storage/${params.storage}`, privilege: "Datastore.AllocateSpace" });
  }
  return needs;
}

/** Required privileges of every step, de-duplicated per (path, privilege). */
export function stepNeeds(steps: Step[]): RequiredPrivilege[] {
  const seen = new Set<string>();
  const out: RequiredPrivilege[] = [];
  for (const step of steps) {
    for (const call of step.calls) {
      for (const need of callNeeds(call)) {
        const key = `${need.path} ${need.privilege}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ ...need, stepId: step.id });
      }
    }
  }
  return out;
}

/** GET /access/permissions: path -> privilege -> 1 when it propagates to paths below. */
export type PermissionDump = Record<string, Record<string, number>>;

/**
 * Whether the dump grants `privilege` on `path`: the path's own entry when listed, else the
 * nearest listed ancestor's propagating privileges.
 */
export function granted(dump: PermissionDump, path: string, privilege: string): boolean {
  const own = dump[path];
  if (own) return privilege in own;
  const parts = path.split("/").filter((p) => p !== "");
  for (let i = parts.length - 1; i >= 0; i--) {
    const ancestor = `/${parts.slice(0, i).join("/")}`;
    const entry = dump[ancestor];
    if (entry) return entry[privilege] === 1;
  }
  return false;
}

export function missingPrivileges(dump: PermissionDump, needs: RequiredPrivilege[]): RequiredPrivilege[] {
  return needs.filter((n) => !(n.anyOf ?? [n.privilege]).some((p) => granted(dump, n.path, p)));
}
