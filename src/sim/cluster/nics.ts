// Network device strings: QEMU `virtio=BC:24:11:..,bridge=vmbr0` and LXC `name=eth0,...,hwaddr=..`.
import { PveApiError } from "../contract.js";
import { parseProps, printProps } from "./propstring.js";

export const QEMU_NIC_MODELS = [
  "e1000",
  "e1000-82540em",
  "e1000-82544gc",
  "e1000-82545em",
  "e1000e",
  "i82551",
  "i82557b",
  "i82559er",
  "ne2k_isa",
  "ne2k_pci",
  "pcnet",
  "rtl8139",
  "virtio",
  "vmxnet3",
];

export interface QemuNic {
  model: string;
  macaddr: string;
  bridge?: string;
  props: Map<string, string>;
}

/** Parses a QEMU netN string; a missing MAC is filled in by `newMac`. */
export function parseQemuNic(key: string, text: string, newMac: () => string): QemuNic {
  const raw = parseProps(text);
  let model: string | undefined;
  let mac: string | undefined;
  const props = new Map<string, string>();
  for (const [k, v] of raw) {
    if (QEMU_NIC_MODELS.includes(k)) {
      model = k;
      if (v !== "") mac = v;
    } else if (k === "model") model = v;
    else if (k === "macaddr") mac = v;
    else props.set(k, v);
  }
  if (!model) throw new PveApiError(400, "Parameter verification failed.", { [key]: "property is missing and it is not optional" });
  if (mac !== undefined && !/^[0-9a-fA-F]{2}(:[0-9a-fA-F]{2}){5}$/.test(mac)) {
    throw new PveApiError(400, "Parameter verification failed.", { [key]: `invalid format - value does not look like a valid MAC address\n` });
  }
  const bridge = props.get("bridge");
  return { model, macaddr: (mac ?? newMac()).toUpperCase(), ...(bridge ? { bridge } : {}), props };
}

export function printQemuNic(nic: QemuNic): string {
  const props = new Map(nic.props);
  props.set(nic.model, nic.macaddr);
  return printProps(props, nic.model, false);
}

/** Normalises a QEMU netN value as PVE does on every write (MAC generated when missing). */
export function normaliseQemuNic(key: string, text: string, newMac: () => string): string {
  return printQemuNic(parseQemuNic(key, text, newMac));
}

/** Normalises an LXC netN value: `name` first, `hwaddr` generated, `type=veth`. */
export function normaliseLxcNic(key: string, text: string, newMac: () => string): string {
  const props = parseProps(text);
  if (!props.has("name")) {
    throw new PveApiError(400, "Parameter verification failed.", { [key]: "missing property - 'name'" });
  }
  props.set("hwaddr", (props.get("hwaddr") ?? newMac()).toUpperCase());
  props.set("type", "veth");
  return printProps(props, "name", false);
}

/** The MAC of a QEMU or LXC NIC string. */
export function nicMac(text: string): string | undefined {
  const props = parseProps(text);
  for (const [k, v] of props) {
    if (QEMU_NIC_MODELS.includes(k) || k === "macaddr" || k === "hwaddr") return v.toUpperCase();
  }
  return undefined;
}

export function nicBridge(text: string): string | undefined {
  return parseProps(text).get("bridge");
}
