// PVE's on-disk guest config format (/etc/pve/qemu-server/<vmid>.conf, /etc/pve/lxc/<vmid>.conf):
// leading `#` lines are the description (URI-escaped), then `key: value` lines sorted by key,
// then `[PENDING]`, `[special:<name>]` (cloudinit, fleecing ...) and one `[<snapname>]`
// section per snapshot, sorted. Values are kept as the text PVE stores.
import { type GuestKind, guestConfigEndpoint } from "./guest-schema.js";
import { validateParam } from "./validate.js";

export type ConfigSection = Record<string, string>;

export interface GuestConfigFile {
  /** The current config; `description` holds the decoded `#` comment lines. */
  current: ConfigSection;
  /** The `[PENDING]` section (its `delete` value is kept raw, e.g. `net1,!scsi2`). Empty when absent. */
  pending: ConfigSection;
  /** `[special:<name>]` sections by name (`cloudinit`, `fleecing`). */
  special: Record<string, ConfigSection>;
  /** Snapshot sections by snapshot name. */
  snapshots: Record<string, ConfigSection>;
  /** What PVE would warn about while reading (values it drops, lines it cannot read). */
  warnings: string[];
}

export interface ParseConfigOptions {
  /** Check known keys against the schema of this guest type and drop invalid values, as PVE does. */
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

const KEY_LINE_RE = /^([a-z][a-z_-]*\d*):\s*(.+?)\s*$/;

export function parseConfigFile(text: string, options: ParseConfigOptions = {}): GuestConfigFile {
  const file: GuestConfigFile = { current: {}, pending: {}, special: {}, snapshots: {}, warnings: [] };
  const who = `${options.kind === "lxc" ? "CT" : "vm"} ${options.vmid ?? "?"}`;
  const endpoint = options.kind ? guestConfigEndpoint(options.kind) : undefined;
  let section: ConfigSection = file.current;
  let sectionName = "main";
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

  const handlers: Array<[RegExp, (m: RegExpExecArray) => void]> = [
    [
      /^\[PENDING\]\s*$/i,
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
    [/^description:\s*(.*\S)\s*$/, (m) => (description += decodeConfigText(m[1] as string))],
    [
      /^(delete|args):\s*(.*\S)\s*$/,
      (m) => {
        if (m[1] === "delete" && sectionName !== "pending") {
          file.warnings.push(`${who} - property 'delete' is only allowed in [PENDING]`);
        } else {
          section[m[1] as string] = m[2] as string;
        }
      },
    ],
    [
      KEY_LINE_RE,
      (m) => {
        const [key, value] = [m[1] as string, m[2] as string];
        const problem = endpoint ? checkKnownKey(endpoint, key, value) : undefined;
        if (problem) file.warnings.push(`${who} - unable to parse value of '${key}' - ${problem}`);
        else section[key] = value;
      },
    ],
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

function printSection(section: ConfigSection, isPending: boolean): string {
  let out = "";
  const description = section.description;
  if (description !== undefined) {
    if (description) {
      for (const line of description.replace(/\n$/, "").split("\n")) out += `#${encodeConfigText(line)}\n`;
    } else if (isPending) {
      out += "#\n";
    }
  }
  for (const key of Object.keys(section).sort()) {
    if (key === "description" || key === "digest") continue;
    out += `${key}: ${section[key]}\n`;
  }
  return out;
}

/** Writes a config file as PVE does (write_vm_config): same section order, keys sorted. */
export function printConfigFile(file: Pick<GuestConfigFile, "current"> & Partial<GuestConfigFile>): string {
  let out = printSection(file.current, false);
  if (file.pending && Object.keys(file.pending).length > 0) out += `\n[PENDING]\n${printSection(file.pending, true)}`;
  for (const name of Object.keys(file.special ?? {}).sort()) {
    const section = file.special?.[name] as ConfigSection;
    if (Object.keys(section).length === 0) continue;
    out += `\n[special:${name}]\n${printSection(section, false)}`;
  }
  for (const name of Object.keys(file.snapshots ?? {}).sort()) {
    out += `\n[${name}]\n${printSection(file.snapshots?.[name] as ConfigSection, false)}`;
  }
  return out;
}
