// PVE's named "code" formats (validators registered with a function rather than a
// property-string sub-schema), with the exact messages PVE dies with. Sources: pve-common
// JSONSchema.pm, pve-access-control, pve-storage, qemu-server, pve-container (facts only).
// Formats not listed here are accepted unchecked.
import { isIP, isIPv4, isIPv6 } from "node:net";
import { CalendarEventError, parseCalendarEvent } from "./calendar-event.js";
import { isDriveSlot, isVmDriveKey } from "./drive-slots.js";
import { tryParseSize } from "./size.js";
import { splitList } from "./tags.js";

/**
 * Thrown by a format check. `message` is PVE's text without the trailing newline;
 * `pveText` is exactly what PVE appends to "invalid format - " (its die message, newline
 * included); `errors` holds the per-key errors of a failed property string.
 */
export class FormatViolation extends Error {
  readonly pveText: string;
  readonly errors: Record<string, string>;

  constructor(message: string, pveText?: string, errors: Record<string, string> = {}) {
    super(message);
    this.name = "FormatViolation";
    this.pveText = pveText ?? `${message}\n`;
    this.errors = errors;
  }
}

type Validator = (value: string) => void;

/** A format checked by a pattern (or anything with a `test`, such as a slot-name predicate). */
function regexFormat(re: { test(value: string): boolean }, message: (value: string) => string): Validator {
  return (value) => {
    if (!re.test(value)) throw new FormatViolation(message(value));
  };
}

const isIpv4Address = (v: string): boolean => isIPv4(v);
// node accepts zone ids (`fe80::1%eth0`); PVE's IPv6 regex does not.
const isIpv6Address = (v: string): boolean => !v.includes("%") && isIPv6(v);

function cidr(value: string, isAddress: (v: string) => boolean, maxBits: number): boolean {
  const m = /^(.+)\/(\d+)$/.exec(value);
  if (!m || !isAddress(m[1] as string)) return false;
  const bits = Number(m[2]);
  return bits > 7 && bits <= maxBits;
}
const isCidrV4 = (v: string): boolean => cidr(v, isIpv4Address, 32);
const isCidrV6 = (v: string): boolean => cidr(v, isIpv6Address, 128);

const DNS_NAME_RE = /^(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?\.)*[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?$/;
const EMAIL_USER = String.raw`[\w+\-~]+(?:\.[\w+\-~]+)*`;
const EMAIL_RE = new RegExp(String.raw`^${EMAIL_USER}@[a-zA-Z0-9-]+(?:\.[a-zA-Z0-9-]+)*$`);
const EMAIL_USER_RE = new RegExp(`^${EMAIL_USER}$`);
const ID_RE = /^[a-z][a-z0-9\-_.]*[a-z0-9]$/i;
const REALM = String.raw`[A-Za-z][A-Za-z0-9.\-_]+`;
const USER = String.raw`[^\s:/]+`;
const USERID_RE = new RegExp(`^${USER}@${REALM}$`);
const TOKENID_RE = new RegExp(`^${USER}@${REALM}(?:!${REALM})?$`);
const IFACE_RE = /^[a-z][a-z0-9_]{1,20}(?:[:.]\d+)?$/i;
const VOLUME_ID_RE = /^[a-z][a-z0-9\-_.]*[a-z0-9]:.+$/is;

const IPV4_MASKS = new Set(
  Array.from({ length: 33 }, (_, bits) => {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    return [24, 16, 8, 0].map((shift) => (mask >>> shift) & 255).join(".");
  }),
);

// qemu-server drive names and the other boot devices (net, usb, hostpci).
const DRIVE_NAME = { test: isVmDriveKey };
const OTHER_BOOT_DEVICE_RE = /^(?:net(?:[0-9]|[12][0-9]|3[01])|usb(?:[0-9]|1[0-3])|hostpci(?:[0-9]|1[0-5]))$/;
const BOOT_DEVICE = { test: (value: string) => isDriveSlot(value) || OTHER_BOOT_DEVICE_RE.test(value) };

function checkVolumeId(value: string): void {
  if (!VOLUME_ID_RE.test(value)) throw new FormatViolation(`unable to parse volume ID '${value}'`);
}

/** PVE 8.1+ (verify_poolname): up to three levels, `parent/child/grandchild`. */
function checkPoolId(value: string): void {
  if (value.split("/").length > 3) throw new FormatViolation(`pool name '${value}' nested too deeply (max levels = 3)`);
  if (!/^[A-Za-z0-9.\-_]+(?:\/[A-Za-z0-9.\-_]+){0,2}$/.test(value))
    throw new FormatViolation(`pool name '${value}' contains invalid characters`);
}

function checkUserid(value: string): void {
  if (value.length < 3) throw new FormatViolation(`user name '${value}' is too short`);
  if (value.length > 64) throw new FormatViolation(`user name '${value}' is too long (${value.length} > 64)`);
  if (!USERID_RE.test(value)) throw new FormatViolation(`value '${value}' does not look like a valid user name`);
}

function checkStartupOrder(value: string): void {
  const ok =
    value !== "" &&
    value !== "0" &&
    value
      .split(",")
      .filter((part) => !/^\s*$/.test(part))
      .every((part) => /^(?:order=)?\d+$/.test(part) || /^up=\d+$/.test(part) || /^down=\d+$/.test(part));
  if (!ok) throw new FormatViolation("unable to parse startup options");
}

function checkVlanIdOrRange(value: string): void {
  const m = /^(\d+)(?:-(\d+))?$/.exec(value);
  if (!m) throw new FormatViolation(`invalid VLAN configuration '${value}'`);
  const [start, end] = [Number(m[1]), m[2] === undefined ? undefined : Number(m[2])];
  for (const tag of [start, end]) {
    if (tag !== undefined && (tag < 2 || tag > 4094)) throw new FormatViolation(`invalid VLAN tag '${tag}'`);
  }
  if (end !== undefined && start >= end) {
    throw new FormatViolation(`VLAN range must go from lower to higher tag '${value}'`);
  }
}

function checkHotplug(value: string): void {
  if (value === "0" || value === "1") return;
  const ok = splitList(value).every((f) => /^(?:network|disk|cpu|memory|usb|cloudinit)$/.test(f));
  if (!ok) throw new FormatViolation("unable to parse hotplug option");
}

function checkCpuset(value: string): void {
  const ok = value.split(",").every((part) => {
    const m = /^\s*(\d+)(?:-(\d+))?\s*$/.exec(part);
    return m !== null && (m[2] === undefined || Number(m[1]) <= Number(m[2]));
  });
  if (!ok) throw new FormatViolation("unable to parse cpuset option");
}

function checkLxcMountPath(value: string): void {
  if (/\/\.\.?\//.test(value) || /\/\.\.?$/.test(value) || /^\.\.?\//.test(value)) {
    throw new FormatViolation(`${value} contains illegal character sequences`);
  }
}

/**
 * pve-container's verify_ip_with_ll_iface (nameserver entries): an IP address, or a link-local
 * IPv6 address with its interface (`fe80::1%eth0`), which the plain `ip` format refuses.
 */
function checkIpWithLinkLocalIface(value: string): void {
  const m = /^(fe80:[^%]+)%(.*)$/.exec(value);
  if (m && isIpv6Address(m[1] as string) && IFACE_RE.test(m[2] as string)) return;
  if (!(isIpv4Address(value) || isIpv6Address(value))) throw new FormatViolation("value does not look like a valid IP address");
}

/**
 * pve-container's pve-ct-timezone: `host`, or a zone pve-common's pve_verify_timezone finds
 * (UTC or a zone of zoneinfo's zone.tab). zone.tab is not here, so the runtime's time zone
 * database stands in for it: it knows every zone.tab zone of its tz release and their aliases,
 * so a zone PVE accepts is refused only if it is newer than the runtime's tz data, while a
 * misspelt one (Europe/Berln) is. The message is pve_verify_timezone's as pve-common words
 * it; pve-common is not among the sources mirrored here, so that text is unverified.
 */
function checkCtTimezone(value: string): void {
  if (value === "host" || value === "UTC") return;
  let known: string;
  try {
    known = new Intl.DateTimeFormat("en", { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    throw new FormatViolation(`invalid time zone '${value}'`);
  }
  // The runtime finds zones in any case; zone.tab's names are compared as written.
  if (known !== value && known.toLowerCase() === value.toLowerCase()) throw new FormatViolation(`invalid time zone '${value}'`);
}

function checkCalendarEvent(value: string): void {
  try {
    parseCalendarEvent(value);
  } catch (err) {
    if (err instanceof CalendarEventError) throw new FormatViolation(err.message);
    throw err;
  }
}

const VALIDATORS: Record<string, Validator> = {
  string: () => {},
  urlencoded: regexFormat(/^[-%a-zA-Z0-9_.!~*'()]*$/, (v) => `invalid urlencoded string: ${v}`),
  "pve-configid": regexFormat(/^[a-z][a-z0-9_-]+$/i, (v) => `invalid configuration ID '${v}'`),
  "pve-storage-id": regexFormat(ID_RE, (v) => `storage ID '${v}' contains illegal characters`),
  "acme-plugin-id": regexFormat(ID_RE, (v) => `ACME plugin ID '${v}' contains illegal characters`),
  "pve-bridge-id": regexFormat(/^[-_.\w]+$/, (v) => `invalid bridge ID '${v}'`),
  "pve-vmid": regexFormat(/^[1-9][0-9]{2,8}$/, () => "value does not look like a valid VM ID"),
  "pve-node": regexFormat(/^[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?$/, () => "value does not look like a valid node name"),
  "mac-addr": regexFormat(/^[a-f0-9][02468ace](?::[a-f0-9]{2}){5}$/i, () => "value does not look like a valid unicast MAC address"),
  ipv4: (v) => {
    if (!isIpv4Address(v)) throw new FormatViolation("value does not look like a valid IPv4 address");
  },
  ipv6: (v) => {
    if (!isIpv6Address(v)) throw new FormatViolation("value does not look like a valid IPv6 address");
  },
  ip: (v) => {
    if (!(isIpv4Address(v) || isIpv6Address(v))) throw new FormatViolation("value does not look like a valid IP address");
  },
  ipv4mask: (v) => {
    if (!IPV4_MASKS.has(v)) throw new FormatViolation("value does not look like a valid IP netmask");
  },
  CIDRv4: (v) => {
    if (!isCidrV4(v)) throw new FormatViolation("value does not look like a valid IPv4 CIDR network");
  },
  CIDRv6: (v) => {
    if (!isCidrV6(v)) throw new FormatViolation("value does not look like a valid IPv6 CIDR network");
  },
  CIDR: (v) => {
    if (!(isCidrV4(v) || isCidrV6(v))) throw new FormatViolation("value does not look like a valid CIDR network");
  },
  "pve-ipv4-config": (v) => {
    if (!(/^(?:dhcp|manual)$/.test(v) || isCidrV4(v))) {
      throw new FormatViolation("value does not look like a valid ipv4 network configuration");
    }
  },
  "pve-ipv6-config": (v) => {
    if (!(/^(?:auto|dhcp|manual)$/.test(v) || isCidrV6(v))) {
      throw new FormatViolation("value does not look like a valid ipv6 network configuration");
    }
  },
  email: regexFormat(EMAIL_RE, () => "value does not look like a valid email address"),
  "email-or-username": (v) => {
    if (!EMAIL_RE.test(v) && !EMAIL_USER_RE.test(v)) {
      throw new FormatViolation("value does not look like a valid email address or user name");
    }
  },
  "dns-name": regexFormat(DNS_NAME_RE, () => "value does not look like a valid DNS name"),
  address: (v) => {
    if (!(isIP(v) !== 0 && !v.includes("%")) && !DNS_NAME_RE.test(v)) {
      throw new FormatViolation(`value does not look like a valid address: ${v}`);
    }
  },
  "pve-iface": regexFormat(IFACE_RE, (v) => `invalid network interface name '${v}'`),
  "pve-vlan-id-or-range": checkVlanIdOrRange,
  "disk-size": (v) => {
    if (tryParseSize(v) === undefined) throw new FormatViolation(`value does not look like a valid disk size: ${v}`);
  },
  "pve-startup-order": checkStartupOrder,
  "pve-tag": regexFormat(/^[a-z0-9_][a-z0-9_\-+.]*$/i, () => "invalid characters in tag"),
  "pve-tfa-secret": regexFormat(
    /^(?:v2-0x[0-9a-fA-F]{16,128}|v2-[A-Z2-7=]{16,128}|[A-Z2-7=]{16}|[A-Fa-f0-9]{40})$/,
    () => "unable to decode TFA secret",
  ),
  "pve-task-status-type": regexFormat(/^(?:ok|error|warning|unknown)$/i, (v) => `invalid status '${v}'`),
  "pve-realm": regexFormat(new RegExp(`^${REALM}$`), () => "value does not look like a valid realm"),
  "pve-userid": checkUserid,
  "pve-tokenid": regexFormat(TOKENID_RE, (v) => `value '${v}' does not look like a valid token ID`),
  "pve-groupid": regexFormat(/^[A-Za-z0-9.\-_]+$/, (v) => `group name '${v}' contains invalid characters`),
  "pve-roleid": regexFormat(/^[A-Za-z0-9.\-_]+$/, (v) => `role name '${v}' contains invalid characters`),
  "pve-poolid": checkPoolId,
  "pve-volume-id": checkVolumeId,
  "pve-volume-id-or-qm-path": (v) => {
    if (v === "none" || v === "cdrom" || v.startsWith("/")) return;
    checkVolumeId(v);
  },
  "pve-volume-id-or-absolute-path": (v) => {
    if (v.startsWith("/")) return;
    checkVolumeId(v);
  },
  "pve-qm-bootdisk": regexFormat(DRIVE_NAME, (v) => `invalid boot disk '${v}'`),
  "pve-qm-bootdev": regexFormat(BOOT_DEVICE, (v) => `invalid boot device '${v}'`),
  "pve-hotplug-features": checkHotplug,
  "pve-cpuset": checkCpuset,
  "pve-lxc-mp-string": checkLxcMountPath,
  "lxc-ip-with-ll-iface": checkIpWithLinkLocalIface,
  "pve-ct-timezone": checkCtTimezone,
  "pve-ha-resource-id": regexFormat(/^[a-z]+:\S+$/, () => "value does not look like a valid ha resource id"),
  "pve-calendar-event": checkCalendarEvent,
};

/** The validator for a code format, or undefined when the format is unknown here (accepted unchecked). */
export function codeFormatValidator(name: string): Validator | undefined {
  return VALIDATORS[name];
}

/** Names of the code formats checked here (for documentation and tests). */
export function checkedCodeFormats(): string[] {
  return Object.keys(VALIDATORS).sort();
}
