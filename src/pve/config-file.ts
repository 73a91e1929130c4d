// PVE's on-disk guest config format (/etc/pve/qemu-server/<vmid>.conf, /etc/pve/lxc/<vmid>.conf):
// leading `#` lines are the description (URI-escaped), then `key: value` lines sorted by key
// (containers add their raw `lxc.*` lines after them, in file order), then the pending
// section (`[PENDING]` for VMs, `[pve:pending]` for containers), VMs' `[special:<name>]`
// sections (cloudinit, fleecing) and one `[<snapname>]` section per snapshot, sorted.
// Values are kept as the text PVE stores.
import { parseDrive, printDrive } from "./config.js";
import { driveBusOf } from "./drive-slots.js";
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
const PENDING_HEADER_RE: Record<GuestKind, RegExp> = { qemu: /^\[PENDING\]\s*$/i, lxc: /^\[pve:pending\]\s*$/i };
/** The special sections qemu-server knows; any other `[special:...]` is an unknown section. */
const SPECIAL_SECTION_RE = /^\[special:(cloudinit|fleecing)\]\s*$/i;
const SNAPSHOT_HEADER_RE = /^\[([a-z][a-z0-9_-]+)\]\s*$/i;
const ANY_HEADER_RE = /^\[([^\]]*)\]\s*$/;

function guessKind(text: string): GuestKind {
  return /^\[pve:pending\]\s*$/im.test(text) || /^lxc\./m.test(text) ? "lxc" : "qemu";
}

/**
 * The description as PVE hands it back after reading the `#` lines: qemu-server trims trailing
 * whitespace (`s/\s+$//`, so a lone `#` is an empty description); pve-container keeps the
 * newline each `#` line adds and drops an empty one.
 */
function finishDescription(kind: GuestKind, text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  if (kind === "qemu") return text.replace(/\s+$/, "");
  return text === "" ? undefined : text;
}

/**
 * The description a guest reads back after PVE wrote `text` to its config: qemu-server
 * without trailing whitespace, pve-container as one `#` line per line, each ending in a
 * newline (Perl's split drops trailing empty lines). Used by the simulator when storing one.
 */
export function storedDescription(kind: GuestKind, text: string): string {
  if (kind === "qemu") return text.replace(/\s+$/, "");
  const lines = text.split("\n");
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines.map((line) => `${line}\n`).join("");
}

/** qemu-server rewrites bus drives (ide/sata/scsi/virtio) through parse_drive/print_drive while reading. */
function normaliseBusDrive(key: string, value: string): string | undefined {
  if (driveBusOf(key) === undefined) return value;
  try {
    return printDrive(key, parseDrive(key, value, "qemu"), "qemu");
  } catch {
    return undefined;
  }
}

interface Reader {
  file: GuestConfigFile;
  who: string;
  /** The section lines go to; undefined while skipping an unknown section (qemu-server). */
  section: ConfigSection | undefined;
  sectionName: string;
  description: string | undefined;
  /** Headers read so far, for qemu-server's duplicate-section warnings. */
  seen: Set<string>;
}

function closeSection(r: Reader): void {
  const description = finishDescription(r.file.kind, r.description);
  if (r.section && description !== undefined) r.section.description = description;
  r.description = undefined;
}

/** Handles a `[...]` header line; false when the line is no header of this dialect. */
function readHeader(r: Reader, line: string): boolean {
  const { file, who } = r;
  const open = (name: string, fresh: ConfigSection | undefined, duplicate: boolean, what: string): true => {
    closeSection(r);
    r.seen.add(name);
    if (duplicate) file.warnings.push(`${who} - duplicate ${what}: ${name.replace(/^special:/, "")}`);
    r.sectionName = name;
    r.section = fresh;
    return true;
  };
  if (PENDING_HEADER_RE[file.kind].test(line)) {
    file.pending = {};
    return open("pending", file.pending, file.kind === "qemu" && r.seen.has("pending"), "section");
  }
  const special = file.kind === "qemu" ? SPECIAL_SECTION_RE.exec(line) : null;
  if (special) {
    const name = (special[1] as string).toLowerCase();
    file.special[name] = {};
    return open(`special:${name}`, file.special[name], r.seen.has(`special:${name}`), "special section");
  }
  const snapshot = SNAPSHOT_HEADER_RE.exec(line);
  if (snapshot) {
    const name = snapshot[1] as string;
    file.snapshots[name] = {};
    return open(name, file.snapshots[name], file.kind === "qemu" && r.seen.has(name), "snapshot section");
  }
  const unknown = file.kind === "qemu" ? ANY_HEADER_RE.exec(line) : null;
  if (!unknown) return false;
  // PVE 9 skips a section it does not know (a newer PVE's special section, say) rather than
  // merging its keys into the section before it. pve-container has no such rule.
  closeSection(r);
  file.warnings.push(`${who} - skipping unknown section: '${unknown[1]}'`);
  r.sectionName = "";
  r.section = undefined;
  return true;
}

export function parseConfigFile(text: string, options: ParseConfigOptions = {}): GuestConfigFile {
  const kind = options.kind ?? guessKind(text);
  const file: GuestConfigFile = { kind, current: {}, pending: {}, special: {}, snapshots: {}, lxcRaw: {}, warnings: [] };
  const r: Reader = {
    file,
    who: `vm ${options.vmid ?? "?"}`,
    section: file.current,
    sectionName: "",
    description: undefined,
    seen: new Set(),
  };
  const endpoint = options.kind ? guestConfigEndpoint(options.kind) : undefined;
  const setKey = (section: ConfigSection, key: string, value: string): void => {
    // qemu-server takes the cloud-init section as it is (informative only).
    if (r.sectionName === "special:cloudinit") {
      section[key] = value;
      return;
    }
    const problem = endpoint ? checkKnownKey(endpoint, key, value) : undefined;
    if (problem) file.warnings.push(`${r.who} - unable to parse value of '${key}' - ${problem}`);
    // qemu-server drops a value it cannot read; pve-container warns and keeps it.
    if (problem && kind === "qemu") return;
    if (kind === "lxc") {
      section[key] = value;
      return;
    }
    const name = key === "cdrom" ? "ide2" : key;
    const normalised = normaliseBusDrive(name, value);
    if (normalised === undefined) file.warnings.push(`${r.who} - unable to parse value of '${name}'`);
    else section[name] = normalised;
  };

  const handlers: Array<[RegExp, (section: ConfigSection, m: RegExpExecArray) => void]> = [
    [/^#(.*)$/, (_s, m) => (r.description = `${r.description ?? ""}${decodeConfigText(m[1] as string)}\n`)],
    [
      LXC_RAW_LINE_RE,
      (_s, m) => {
        const lines = file.lxcRaw[r.sectionName] ?? [];
        lines.push([m[1] as string, m[2] as string]);
        file.lxcRaw[r.sectionName] = lines;
      },
    ],
    [/^description:\s*(.*\S)\s*$/, (_s, m) => (r.description = `${r.description ?? ""}${decodeConfigText(m[1] as string)}`)],
    [
      /^(delete|args):\s*(.*\S)\s*$/,
      (section, m) => {
        if (m[1] === "delete" && r.sectionName !== "pending") {
          file.warnings.push(`${r.who} - property 'delete' is only allowed in ${PENDING_HEADER[kind]}`);
        } else {
          section[m[1] as string] = m[2] as string;
        }
      },
    ],
    [kind === "qemu" ? QEMU_KEY_LINE_RE : LXC_KEY_LINE_RE, (section, m) => setKey(section, m[1] as string, m[2] as string)],
  ];

  for (const line of text.split("\n")) {
    if (/^\s*$/.test(line) || readHeader(r, line)) continue;
    const section = r.section;
    if (!section) continue;
    const handled = handlers.some(([re, handle]) => {
      const m = re.exec(line);
      if (m) handle(section, m);
      return m !== null;
    });
    if (!handled) file.warnings.push(`${r.who} - unable to parse config: ${line}`);
  }
  closeSection(r);
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
