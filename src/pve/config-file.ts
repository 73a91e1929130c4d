// PVE's on-disk guest config format (/etc/pve/qemu-server/<vmid>.conf, /etc/pve/lxc/<vmid>.conf):
// leading `#` lines are the description (URI-escaped), then `key: value` lines sorted by key
// (containers add their raw `lxc.*` lines after them, in file order), then the pending
// section (`[PENDING]` for VMs, `[pve:pending]` for containers), VMs' `[special:<name>]`
// sections (cloudinit, fleecing) and one `[<snapname>]` section per snapshot, sorted.
// Values are kept as the text PVE stores.
import { type GuestKind, guestConfigEndpoint } from "./guest-schema.js";
import { validateParam } from "./validate.js";

export type ConfigSection = Record<string, string>;

export interface GuestConfigFile {
  /** qemu-server or pve-container dialect (decides the pending header when printing). */
  kind: GuestKind;
  /** The current config; `description` holds the decoded `#` comment lines. */
  current: ConfigSection;
  /** The pending section (its `delete` value is kept raw, e.g. `net1,!scsi2`). Empty when absent. */
  pending: ConfigSection;
  /** `[special:<name>]` sections by name (`cloudinit`, `fleecing`); VMs only. */
  special: Record<string, ConfigSection>;
  /** Snapshot sections by snapshot name. */
  snapshots: Record<string, ConfigSection>;
  /** Containers' raw `lxc.*` lines (keys may repeat), by section: "" current, "pending", or a snapshot name. */
  lxcRaw: Record<string, Array<[string, string]>>;
  /** What PVE would warn about while reading (values it drops, lines it cannot read). */
  warnings: string[];
}

export interface ParseConfigOptions {
  /**
   * The guest type. When given, known keys are checked against its schema as PVE does while
   * reading (VMs drop invalid values, containers keep them; both warn). Without it the
   * dialect is guessed from the text and nothing is checked.
   */
  kind?: GuestKind;
  /** The vmid, for warning texts. */
  vmid?: number | string;
}

/** PVE's decode_text: %XX escapes to UTF-8 text. */
export function decodeConfigText(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const escaped = text[i] === "%" ? /^[0-9a-fA-F]{2}$/.exec(text.slice(i + 1, i + 3)) : null;
    if (escaped) {
      bytes.push(Number.parseInt(escaped[0], 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(text[i] as string, "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/** PVE's encode_text: control characters, ':' and non-ASCII escaped as %XX of their UTF-8 bytes ('%' itself is not). */
export function encodeConfigText(text: string): string {
  let out = "";
  for (const byte of Buffer.from(text, "utf8")) {
    const safe = byte >= 0x20 && byte <= 0x7e && byte !== 0x3a;
    out += safe ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

const QEMU_KEY_LINE_RE = /^([a-z][a-z_-]*\d*):\s*(.+?)\s*$/;
const LXC_KEY_LINE_RE = /^([a-z][a-z_]*\d*):\s*(.+?)\s*$/;
const LXC_RAW_LINE_RE = /^(lxc\.[a-z0-9_\-.]+)(?::|\s*=)\s*(.*?)\s*$/;
const PENDING_HEADER: Record<GuestKind, string> = { qemu: "[PENDING]", lxc: "[pve:pending]" };

function guessKind(text: string): GuestKind {
  return /^\[pve:pending\]\s*$/im.test(text) || /^lxc\./m.test(text) ? "lxc" : "qemu";
}

export function parseConfigFile(text: string, options: ParseConfigOptions = {}): GuestConfigFile {
  const kind = options.kind ?? guessKind(text);
  const file: GuestConfigFile = { kind, current: {}, pending: {}, special: {}, snapshots: {}, lxcRaw: {}, warnings: [] };
  const who = `vm ${options.vmid ?? "?"}`;
  const endpoint = options.kind ? guestConfigEndpoint(options.kind) : undefined;
  let section: ConfigSection = file.current;
  let sectionName = "";
  let description = "";
  const closeSection = (): void => {
    if (description) section.description = description;
    description = "";
  };
  const open = (name: string, fresh: ConfigSection): void => {
    closeSection();
    sectionName = name;
    section = fresh;
  };
  const setKey = (key: string, value: string): void => {
    const problem = endpoint ? checkKnownKey(endpoint, key, value) : undefined;
    if (problem) file.warnings.push(`${who} - unable to parse value of '${key}' - ${problem}`);
    // qemu-server drops a value it cannot read; pve-container warns and keeps it.
    if (problem && kind === "qemu") return;
    section[kind === "qemu" && key === "cdrom" ? "ide2" : key] = value;
  };

  const handlers: Array<[RegExp, (m: RegExpExecArray) => void]> = [
    [
      /^\[(?:PENDING|pve:pending)\]\s*$/i,
      () => {
        file.pending = {};
        open("pending", file.pending);
      },
    ],
    [
      /^\[special:([a-z]+)\]\s*$/i,
      (m) => {
        const name = (m[1] as string).toLowerCase();
        file.special[name] = {};
        open(`special:${name}`, file.special[name]);
      },
    ],
    [
      /^\[([a-z][a-z0-9_-]+)\]\s*$/i,
      (m) => {
        const name = m[1] as string;
        file.snapshots[name] = {};
        open(name, file.snapshots[name]);
      },
    ],
    [/^#(.*)$/, (m) => (description += `${decodeConfigText(m[1] as string)}\n`)],
    [
      LXC_RAW_LINE_RE,
      (m) => {
        const lines = file.lxcRaw[sectionName] ?? [];
        lines.push([m[1] as string, m[2] as string]);
        file.lxcRaw[sectionName] = lines;
      },
    ],
    [/^description:\s*(.*\S)\s*$/, (m) => (description += decodeConfigText(m[1] as string))],
    [
      /^(delete|args):\s*(.*\S)\s*$/,
      (m) => {
        if (m[1] === "delete" && sectionName !== "pending") {
          file.warnings.push(`${who} - property 'delete' is only allowed in ${PENDING_HEADER[kind]}`);
        } else {
          section[m[1] as string] = m[2] as string;
        }
      },
    ],
    [kind === "qemu" ? QEMU_KEY_LINE_RE : LXC_KEY_LINE_RE, (m) => setKey(m[1] as string, m[2] as string)],
  ];

  for (const line of text.split("\n")) {
    if (/^\s*$/.test(line)) continue;
    const handled = handlers.some(([re, handle]) => {
      const m = re.exec(line);
      if (m) handle(m);
      return m !== null;
    });
    if (!handled) file.warnings.push(`${who} - unable to parse config: ${line}`);
  }
  closeSection();
  return file;
}

function checkKnownKey(endpoint: ReturnType<typeof guestConfigEndpoint>, key: string, value: string): string | undefined {
  const result = validateParam(endpoint, key, value, { lenientBooleans: true });
  // Keys the API does not take (parent, snaptime, vmstate, meta, runningmachine ...) are kept as they are.
  if (result.error === "property is not defined in schema and the schema does not allow additional properties") return undefined;
  return result.error;
}

function printSection(section: ConfigSection, lxcRaw: Array<[string, string]> | undefined, isQemuPending: boolean): string {
  let out = "";
  const description = section.description;
  if (description) {
    for (const line of description.replace(/\n$/, "").split("\n")) out += `#${encodeConfigText(line)}\n`;
  } else if (description !== undefined && isQemuPending) {
    out += "#\n";
  }
  for (const key of Object.keys(section).sort()) {
    if (key === "description" || key === "digest") continue;
    out += `${key}: ${section[key]}\n`;
  }
  for (const [key, value] of lxcRaw ?? []) out += `${key}: ${value}\n`;
  return out;
}

/** Writes a config file as PVE does (write_vm_config / write_pct_config): same section order, keys sorted. */
export function printConfigFile(file: Pick<GuestConfigFile, "current"> & Partial<GuestConfigFile>): string {
  const kind = file.kind ?? "qemu";
  const raw = file.lxcRaw ?? {};
  let out = printSection(file.current, raw[""], false);
  if (file.pending && (Object.keys(file.pending).length > 0 || raw.pending?.length)) {
    out += `\n${PENDING_HEADER[kind]}\n${printSection(file.pending, raw.pending, kind === "qemu")}`;
  }
  for (const name of Object.keys(file.special ?? {}).sort()) {
    const section = file.special?.[name] as ConfigSection;
    if (Object.keys(section).length === 0) continue;
    out += `\n[special:${name}]\n${printSection(section, undefined, false)}`;
  }
  for (const name of Object.keys(file.snapshots ?? {}).sort()) {
    out += `\n[${name}]\n${printSection(file.snapshots?.[name] as ConfigSection, raw[name], false)}`;
  }
  return out;
}
