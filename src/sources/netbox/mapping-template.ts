// A platform's guest template (platform-template.ts, ct-template.ts) on the guest a record maps to. The record
// wins for what NetBox holds (the config refuses a template that sets it); the template adds
// the rest: plain fields, options of the disks and NICs the record has, CD-ROMs, cloud-init
// keys, EFI and TPM disks, extraConfig.
import type { CloudInitSpec, ContainerSpec, DiskSpec, NicSpec, VmSpec } from "../spec/model.js";
import type { CtTemplate } from "./ct-template.js";
import type { VmTemplate } from "./platform-template.js";

/** The record's facts the template is applied with. */
export interface TemplateContext {
  /** The record's storage: the EFI and TPM disks' unless the template names one. */
  storage: string | undefined;
  /** Config key of the template, for messages: `platforms.<slug>.vm`. */
  key: string;
}

function disksWith(disks: Record<string, DiskSpec>, t: VmTemplate): Record<string, DiskSpec> {
  const out: Record<string, DiskSpec> = {};
  for (const [slot, disk] of Object.entries(disks)) {
    const own = t.disks[slot];
    out[slot] = own
      ? { ...disk, ...(own.format !== undefined ? { format: own.format } : {}), options: { ...own.options, ...disk.options } }
      : disk;
  }
  return out;
}

/** The record's NICs with the template's keys for their slots (its model the mapping applied already). */
function nicsWith(nics: Record<string, NicSpec>, t: VmTemplate): Record<string, NicSpec> {
  return Object.fromEntries(Object.entries(nics).map(([slot, nic]) => [slot, { ...nic, ...t.nics[slot] }]));
}

/** `sockets` in the template: the record's vCPUs spread over them. */
function coresWith(spec: VmSpec, t: VmTemplate, key: string, errors: string[]): number | undefined {
  const sockets = t.fields.sockets;
  if (sockets === undefined || spec.cores === undefined) return spec.cores;
  if (spec.cores % sockets === 0) return spec.cores / sockets;
  errors.push(
    `vcpus ${spec.cores} cannot be spread evenly over the ${sockets} sockets \`${key}.sockets\` asks for; give the record a multiple of ${sockets} vCPUs`,
  );
  return spec.cores;
}

/** The VM `spec` (mapped from the record) with the platform's template applied; problems go to `errors`. */
export function applyVmTemplate(spec: VmSpec, t: VmTemplate, ctx: TemplateContext, errors: string[]): VmSpec {
  const { tags, ...fields } = t.fields;
  const out: VmSpec = {
    ...spec,
    ...fields,
    disks: disksWith(spec.disks, t),
    nics: nicsWith(spec.nics, t),
    cdroms: { ...spec.cdroms, ...t.cdroms },
  };
  const cores = coresWith(spec, t, ctx.key, errors);
  if (cores !== undefined) out.cores = cores;
  if (out.balloon !== undefined && out.memory !== undefined && out.balloon > out.memory)
    errors.push(`\`${ctx.key}.balloon\` (${out.balloon} MiB) is more than the record's memory (${out.memory} MiB); PVE refuses that`);
  if (tags?.length) out.tags = [...new Set([...(spec.tags ?? []), ...tags])].sort();
  if (spec.cloudInit) out.cloudInit = { ...spec.cloudInit, ...t.cloudInit } as CloudInitSpec;
  const storage = ctx.storage !== undefined ? { storage: ctx.storage } : {};
  if (t.efidisk) out.efidisk = { ...(spec.efidisk ?? { storage: "", efitype: "4m" as const }), ...storage, ...t.efidisk };
  if (t.tpm) out.tpm = { storage: "", ...storage, ...t.tpm };
  if (Object.keys(t.extraConfig).length > 0) out.extraConfig = { ...spec.extraConfig, ...t.extraConfig };
  return out;
}

/** The container `spec` (mapped from the record) with the platform's `ct:` template applied. */
export function applyCtTemplate(spec: ContainerSpec, t: CtTemplate): ContainerSpec {
  const { tags, ...fields } = t.fields;
  const out: ContainerSpec = { ...spec, ...fields, options: { ...t.options, ...spec.options } };
  if (tags?.length) out.tags = [...new Set([...(spec.tags ?? []), ...tags])].sort();
  if (spec.rootfs) out.rootfs = { ...spec.rootfs, options: { ...t.rootfs, ...spec.rootfs.options } };
  out.mounts = Object.fromEntries(
    Object.entries(spec.mounts).map(([slot, m]) => [slot, { ...m, options: { ...t.mounts[slot], ...m.options } }]),
  );
  out.nics = Object.fromEntries(
    Object.entries(spec.nics).map(([slot, nic]) => {
      const own = t.nics[slot];
      return [
        slot,
        own ? { ...nic, ...(own.bridge !== undefined ? { bridge: own.bridge } : {}), options: { ...own.options, ...nic.options } } : nic,
      ];
    }),
  );
  return out;
}
