// `pvectl import` of a container writes a spec whose plan against the same container is
// empty: for random container specs, the container as PVE would hold it after an apply,
// written back as a spec (liveToSpecCt) and loaded again, is the same desired state. Values
// equal to PVE's default compare equal to "not set" (the options table's rule), and
// create-only inputs (template, password, keys) are not part of a live container.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { stringify } from "yaml";
import { desiredContainersOf } from "../../src/app/plan-spec.js";
import type { DesiredCt, LiveCt, LiveMount } from "../../src/resources/lxc/model.js";
import { lxcOption } from "../../src/resources/lxc/options-table.js";
import { liveToSpecCt } from "../../src/resources/lxc/to-spec.js";
import { parseSpec } from "../../src/sources/spec/index.js";

const SEED = 1313;

const bool = fc.boolean();
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const octet = fc.integer({ min: 1, max: 254 });
const ipv4 = fc.tuple(octet, octet).map(([a, b]) => `10.${a}.${b}.1`);
const mac = fc
  .array(fc.integer({ min: 0, max: 255 }), { minLength: 5, maxLength: 5 })
  .map((bytes) => ["BC", ...bytes.map((b) => b.toString(16).padStart(2, "0").toUpperCase())].join(":"));
const dnsName = fc.constantFrom("example.com", "lab.internal", "a.b.c");
const storage = fc.constantFrom("local-lvm", "local-zfs", "tank");
const size = fc.integer({ min: 1, max: 64 }).chain((n) => fc.constantFrom(`${n}G`, `${n * 512}M`));

const features = fc.record(
  { nesting: bool, keyctl: bool, fuse: bool, mknod: bool, mount: fc.subarray(["nfs", "cifs", "ext4"], { minLength: 1 }) },
  { requiredKeys: [] },
);

const volumeMount = fc.record(
  {
    storage,
    size,
    mountpoint: fc.constantFrom("/data", "/srv/x", "/var/lib/db"),
    backup: maybe(bool),
    ro: maybe(bool),
    acl: maybe(bool),
    replicate: maybe(bool),
  },
  { requiredKeys: ["storage", "size", "mountpoint"] },
);
const bindMount = fc.record(
  { volume: fc.constantFrom("/srv/shared", "/mnt/media"), mountpoint: fc.constantFrom("/shared", "/media"), ro: maybe(bool) },
  { requiredKeys: ["volume", "mountpoint"] },
);

const nic = (index: number) =>
  fc.record(
    {
      name: maybe(fc.constantFrom(`eth${index}`, `lan${index}`)),
      bridge: fc.constantFrom("vmbr0", "vmbr1"),
      ip: maybe(
        fc.oneof(
          fc.constantFrom("dhcp", "manual"),
          ipv4.map((ip) => `${ip}/24`),
        ),
      ),
      ip6: maybe(fc.constantFrom("dhcp", "auto", "manual", "fd00::5/64")),
      tag: maybe(fc.integer({ min: 1, max: 4094 })),
      firewall: maybe(bool),
      mtu: maybe(fc.integer({ min: 576, max: 9000 })),
      rate: maybe(fc.constantFrom(10, 12.5)),
      link_down: maybe(bool),
      hwaddr: mac,
    },
    { requiredKeys: ["bridge", "hwaddr"] },
  );

function slots<T>(base: string, count: number, value: (i: number) => fc.Arbitrary<T>): fc.Arbitrary<Record<string, T>> {
  return fc
    .subarray([...Array(count).keys()], { maxLength: 3 })
    .chain((indexes) =>
      indexes.length === 0
        ? fc.constant({})
        : fc.tuple(...indexes.map((i) => value(i))).map((values) => Object.fromEntries(values.map((v, k) => [`${base}${indexes[k]}`, v]))),
    );
}

const container = fc.record(
  {
    vmid: fc.integer({ min: 100, max: 999999 }),
    hostname: fc.constantFrom("web1", "db-1", "cache.lab"),
    node: fc.constantFrom("pve1", "pve2"),
    pool: maybe(fc.constantFrom("web", "")),
    power: fc.constantFrom("running", "stopped"),
    ostemplate: maybe(fc.constant("local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst")),
    arch: maybe(fc.constantFrom("amd64", "arm64")),
    ostype: maybe(fc.constantFrom("debian", "alpine", "ubuntu")),
    unprivileged: maybe(bool),
    cores: maybe(fc.integer({ min: 1, max: 64 })),
    cpulimit: maybe(fc.integer({ min: 0, max: 6400 }).map((n) => n / 100)),
    cpuunits: maybe(fc.integer({ min: 1, max: 10000 })),
    memory: maybe(
      fc.oneof(
        fc.integer({ min: 16, max: 65536 }),
        fc.integer({ min: 1, max: 64 }).map((n) => `${n}G`),
      ),
    ),
    swap: maybe(fc.integer({ min: 0, max: 8192 })),
    onboot: maybe(bool),
    startup: maybe(fc.constantFrom("order=1", "order=2,up=30", "down=60")),
    protection: maybe(bool),
    timezone: maybe(fc.constantFrom("UTC", "Europe/Vienna", "host")),
    tags: maybe(fc.subarray(["web", "prod", "db"], { minLength: 1 })),
    description: maybe(fc.constantFrom("", "the web tier", "ticket #13: db")),
    nameserver: maybe(fc.array(ipv4, { minLength: 1, maxLength: 3 })),
    searchdomain: maybe(fc.array(dnsName, { minLength: 1, maxLength: 2 })),
    features: maybe(features),
    passwordEnv: maybe(fc.constant("PVE_CT_ROOT")),
    sshPublicKeys: maybe(fc.constant(["ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHB2ZWN0bC1kZW1vLWtleS1vbmx5LW5vdC1hLXJlYWwh ops@example.com"])),
    rootfs: fc.record({ storage, size, quota: maybe(bool), acl: maybe(bool) }, { requiredKeys: ["storage", "size"] }),
    mounts: slots("mp", 8, () => fc.oneof(volumeMount, bindMount)),
    nics: slots("net", 6, nic),
    extraConfig: fc.record(
      { tty: fc.integer({ min: 0, max: 6 }), cmode: fc.constantFrom("tty", "console", "shell"), console: bool },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: ["vmid", "hostname", "node", "power", "rootfs", "mounts", "nics", "extraConfig"] },
);

/** YAML as a person would write it (no undefined entries). */
function specText(entry: object): string {
  return stringify({ containers: [JSON.parse(JSON.stringify(entry))] });
}

function loadOne(text: string): DesiredCt {
  const [ct] = desiredContainersOf(parseSpec(text, "ct.yaml"));
  assert.ok(ct);
  return ct;
}

/** The container as PVE holds it after creating `desired`: volumes allocated, the ownership tag set. */
function liveOf(desired: DesiredCt): LiveCt {
  const mounts: Record<string, LiveMount> = {};
  desired.mounts.forEach((m, disk) => {
    const volume = m.bindPath ?? `${m.storage}:subvol-${desired.vmid}-disk-${disk}`;
    mounts[m.slot] = {
      slot: m.slot,
      volume,
      ...(m.storage !== undefined ? { storage: m.storage } : {}),
      ...(m.sizeBytes !== undefined ? { sizeBytes: m.sizeBytes } : {}),
      ...(m.mountpoint !== undefined ? { mountpoint: m.mountpoint } : {}),
      options: { ...m.options },
    };
  });
  const nics = Object.fromEntries(
    desired.nics.map((n) => [
      n.slot,
      {
        slot: n.slot,
        name: n.name,
        ...(n.hwaddr ? { hwaddr: n.hwaddr } : {}),
        ...(n.bridge ? { bridge: n.bridge } : {}),
        options: { type: "veth", ...n.options },
      },
    ]),
  );
  return {
    kind: "lxc",
    vmid: desired.vmid ?? 100,
    node: desired.node,
    pendingKeys: [],
    name: desired.name,
    status: desired.power ?? "stopped",
    template: false,
    options: { hostname: desired.name, arch: "amd64", ...desired.options },
    tags: [...(desired.tags ?? []), "pvectl"].sort(),
    mounts,
    nics,
    unused: {},
    ...(desired.pool !== undefined ? { pool: desired.pool } : {}),
  };
}

/** What a plan compares: without create-only inputs, PVE's defaults as "not set", empty sections as managed. */
function compared(ct: DesiredCt): object {
  const { ostemplate: _t, password: _p, sshPublicKeys: _k, adopt: _a, unmanaged, ...rest } = ct;
  const options = Object.fromEntries(Object.entries(ct.options).filter(([key, value]) => lxcOption(key)?.default !== value));
  const stillUnmanaged = (unmanaged ?? []).filter((section) =>
    section === "mounts" ? ct.mounts.some((m) => m.slot !== "rootfs") : ct.nics.length > 0,
  );
  return { ...rest, options, tags: ct.tags ?? [], unmanaged: stillUnmanaged };
}

describe("liveToSpecCt (import of a container)", () => {
  it("writes a spec that loads back into the same desired state", () => {
    fc.assert(
      fc.property(container, (entry) => {
        const first = loadOne(specText(entry));
        const imported = liveToSpecCt(liveOf(first));
        const again = loadOne(specText(imported));
        assert.deepEqual(compared(again), compared(first));
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it("leaves PVE's defaults and the ownership tag out, and says the container is privileged when it is", () => {
    const live = liveOf(
      loadOne(
        specText({
          hostname: "ct1",
          node: "pve1",
          rootfs: { storage: "local-lvm", size: "8G" },
          nics: { net0: { bridge: "vmbr0", hwaddr: "BC:24:11:00:00:01" } },
        }),
      ),
    );
    live.options = { ...live.options, cmode: "tty", onboot: "0" };
    assert.deepEqual(liveToSpecCt(live), {
      vmid: 100,
      hostname: "ct1",
      node: "pve1",
      power: "stopped",
      unprivileged: false,
      rootfs: { storage: "local-lvm", size: "8G" },
      nics: { net0: { bridge: "vmbr0", hwaddr: "BC:24:11:00:00:01" } },
    });
  });

  it("marks a container pvectl did not create for adoption", () => {
    const live = liveOf(loadOne(specText({ hostname: "ct1", node: "pve1", tags: ["web"] })));
    live.tags = ["web"];
    assert.equal(liveToSpecCt(live).adopt, true);
    assert.deepEqual(liveToSpecCt(live).tags, ["web"]);
  });
});
