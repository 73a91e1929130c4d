// One row per plain LXC config key (not mount points or NICs, which are keyed by slot): what
// pvectl knows about it. The container spec's fields, normalization, import, the running-
// container decision (applied at once or pending until restart) and privileges read these
// rows, so adding a container option is one row. Facts from pve-container:
// - applied at once on a running container: LXC/Config.pm's fast-plug list (description,
//   onboot, startup, protection, hostname, hookscript, cores, tags) and what
//   vmconfig_hotplug_pending changes through cgroups (cpulimit, cpuunits, memory, swap);
//   every other key waits in `[pve:pending]` for the next start;
// - privileges: LXC.pm's check_ct_modify_config_perm (features other than nesting and
//   hookscript are root@pam only; nesting needs VM.Allocate);
// - `unprivileged` cannot change after creation ("unable to modify read-only option").

/** How PVE writes the value, and so how both sides are put in one form before comparing. */
export type LxcOptionValue =
  | "integer"
  | "number"
  /** 0/1 */
  | "boolean"
  /** Compared as written (trimmed). */
  | "text"
  /** A property string (`features: nesting=1,keyctl=1`), compared part by part. */
  | "property-string"
  /** Free text PVE keeps as `#` comment lines. */
  | "comment";

/**
 * How a spec value is written and turned into PVE's:
 * - `pve`: as PVE's schema types the key (integer and number ranges, boolean, enum, string);
 * - `MiB`: MiB as a number, or a size with a unit (`2G`);
 * - `features`: an object of feature flags (`{ nesting: true, keyctl: true }`);
 * - `addresses`, `words`: a list of IP addresses, or of words (space-separated in PVE);
 * - `own`: a field with code of its own (hostname, tags).
 */
export type LxcSpecKind = "pve" | "MiB" | "features" | "addresses" | "words" | "own";

export interface LxcSpecField {
  field: string;
  kind: LxcSpecKind;
  /** The JSON Schema description editors show. */
  describe?: string;
}

/**
 * Where the spec sets the key: a field of its own; only `extraConfig` (the default); refused
 * with a hint; or never, because PVE keeps it itself (`pve-internal`).
 */
export type LxcSpecRule = LxcSpecField | { refused: string } | "pve-internal";

export interface LxcOption {
  /** PVE's config key, or for `indexed` keys its stem (`dev` for dev0, dev1 ...). */
  key: string;
  indexed?: true;
  value: LxcOptionValue;
  unit?: "MiB";
  /** PVE's value when the key is absent, in canonical form: "not set" and "set to it" compare equal. */
  default?: string;
  /** A change on a running container is applied at once (true) or waits for the next start. */
  live: boolean;
  /** Set when the container is created and never changed after (a change is a plan error). */
  createOnly?: true;
  /** The privilege check_ct_modify_config_perm asks for writing or deleting the key. */
  privilege: string;
  /** Only root@pam may write the key (PVE refuses everyone else whatever their privileges). */
  rootOnly?: true;
  /** Absent: the key is set through `extraConfig` only. */
  spec?: LxcSpecRule;
  /** `never`: import leaves the key out. */
  import?: "never";
}

const CPU = "VM.Config.CPU";
const MEMORY = "VM.Config.Memory";
const NETWORK = "VM.Config.Network";
const OPTIONS = "VM.Config.Options";

// Order matters: the container's spec fields appear in the JSON Schema and in `import` in this order.
export const LXC_OPTIONS = [
  // ---- the container's own fields ----
  { key: "hostname", value: "text", live: true, privilege: NETWORK, spec: { field: "hostname", kind: "own" } },
  { key: "arch", value: "text", default: "amd64", live: false, privilege: OPTIONS, spec: { field: "arch", kind: "pve" } },
  { key: "ostype", value: "text", live: false, privilege: OPTIONS, spec: { field: "ostype", kind: "pve" } },
  {
    key: "unprivileged",
    value: "boolean",
    default: "0",
    live: false,
    createOnly: true,
    privilege: OPTIONS,
    spec: {
      field: "unprivileged",
      kind: "pve",
      describe: "Run as an unprivileged container. pvectl creates unprivileged containers unless this says false.",
    },
  },
  { key: "cores", value: "integer", live: true, privilege: CPU, spec: { field: "cores", kind: "pve" } },
  { key: "cpulimit", value: "number", default: "0", live: true, privilege: CPU, spec: { field: "cpulimit", kind: "pve" } },
  { key: "cpuunits", value: "integer", live: true, privilege: CPU, spec: { field: "cpuunits", kind: "pve" } },
  {
    key: "memory",
    value: "integer",
    unit: "MiB",
    default: "512",
    live: true,
    privilege: MEMORY,
    spec: { field: "memory", kind: "MiB", describe: "MiB (2048) or a size with a unit (2G)." },
  },
  {
    key: "swap",
    value: "integer",
    unit: "MiB",
    default: "512",
    live: true,
    privilege: MEMORY,
    spec: { field: "swap", kind: "MiB", describe: "MiB (512) or a size with a unit (1G)." },
  },
  { key: "onboot", value: "boolean", default: "0", live: true, privilege: OPTIONS, spec: { field: "onboot", kind: "pve" } },
  { key: "startup", value: "text", live: true, privilege: OPTIONS, spec: { field: "startup", kind: "pve" } },
  { key: "protection", value: "boolean", default: "0", live: true, privilege: OPTIONS, spec: { field: "protection", kind: "pve" } },
  { key: "timezone", value: "text", live: false, privilege: OPTIONS, spec: { field: "timezone", kind: "pve" } },
  { key: "tags", value: "text", live: true, privilege: OPTIONS, spec: { field: "tags", kind: "own" } },
  { key: "description", value: "comment", default: "", live: true, privilege: OPTIONS, spec: { field: "description", kind: "pve" } },
  {
    key: "nameserver",
    value: "text",
    live: false,
    privilege: NETWORK,
    spec: { field: "nameserver", kind: "addresses", describe: "DNS servers, a list." },
  },
  {
    key: "searchdomain",
    value: "text",
    live: false,
    privilege: NETWORK,
    spec: { field: "searchdomain", kind: "words", describe: "DNS search domains, a list." },
  },
  {
    key: "features",
    value: "property-string",
    live: false,
    privilege: "VM.Allocate",
    spec: {
      field: "features",
      kind: "features",
      describe: "Feature flags: nesting, keyctl, fuse, mount, mknod. Only root@pam may set any but nesting.",
    },
  },
  {
    key: "password",
    value: "text",
    live: false,
    createOnly: true,
    privilege: OPTIONS,
    spec: { refused: "`passwordEnv` or `passwordFile` (a password in a spec file ends up in git and logs)" },
    import: "never",
  },

  // ---- set through extraConfig ----
  { key: "cmode", value: "text", default: "tty", live: false, privilege: OPTIONS },
  { key: "console", value: "boolean", default: "1", live: false, privilege: OPTIONS },
  { key: "tty", value: "integer", default: "2", live: false, privilege: OPTIONS },
  { key: "entrypoint", value: "text", default: "/sbin/init", live: false, privilege: OPTIONS },
  { key: "env", value: "text", live: false, privilege: OPTIONS },
  { key: "debug", value: "boolean", default: "0", live: false, privilege: OPTIONS },
  { key: "hookscript", value: "text", live: true, privilege: OPTIONS, rootOnly: true },
  { key: "dev", indexed: true, value: "text", live: false, privilege: OPTIONS, rootOnly: true },

  // ---- PVE's own bookkeeping: no spec sets it, import leaves it out ----
  { key: "template", value: "boolean", live: false, privilege: OPTIONS, spec: "pve-internal" },
  { key: "lock", value: "text", live: true, privilege: OPTIONS, spec: "pve-internal" },
  { key: "digest", value: "text", live: false, privilege: OPTIONS, spec: "pve-internal" },
  { key: "parent", value: "text", live: false, privilege: OPTIONS, spec: "pve-internal" },
  { key: "snaptime", value: "integer", live: false, privilege: OPTIONS, spec: "pve-internal" },
  { key: "lxc", value: "text", live: false, privilege: OPTIONS, spec: "pve-internal" },
] as const satisfies readonly LxcOption[];

export const LXC_OPTION_ROWS: readonly LxcOption[] = LXC_OPTIONS;

const byKey = new Map<string, LxcOption>();
const byStem = new Map<string, LxcOption>();
for (const row of LXC_OPTION_ROWS) (row.indexed ? byStem : byKey).set(row.key, row);

/** The row of config key `key` (`dev3` finds the `dev` row); undefined: nothing known. */
export function lxcOption(key: string): LxcOption | undefined {
  const exact = byKey.get(key);
  if (exact) return exact;
  const stem = /^(.*\D)\d+$/.exec(key)?.[1];
  return stem === undefined ? undefined : byStem.get(stem);
}

/** The spec field of a row, when the spec has one for it. */
export function lxcSpecFieldOf(row: LxcOption): LxcSpecField | undefined {
  return typeof row.spec === "object" && "field" in row.spec ? row.spec : undefined;
}

/** Rows with a spec field, in table order. */
export function lxcSpecFieldRows(): Array<{ row: LxcOption; spec: LxcSpecField }> {
  return LXC_OPTION_ROWS.flatMap((row) => {
    const spec = lxcSpecFieldOf(row);
    return spec ? [{ row, spec }] : [];
  });
}

/** How `import` writes the key: as its spec field, under extraConfig, or not at all. */
export function lxcImportRule(row: LxcOption): "field" | "extraConfig" | "never" {
  if (row.import === "never" || (row.spec !== undefined && !lxcSpecFieldOf(row))) return "never";
  return lxcSpecFieldOf(row) ? "field" : "extraConfig";
}

/** The feature flags a spec may set (`features:`), as PVE's `features` property string names them. */
export const LXC_FEATURES = ["nesting", "keyctl", "fuse", "mount", "mknod"] as const;
