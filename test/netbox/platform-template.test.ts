// A platform says everything a spec VM can (`platforms.<slug>.vm`, diskOptions, nicModel):
// checked by the spec's own schema at config load (problems with file:line), applied to each
// record with the record winning for what NetBox holds, built against the PVE simulator, and
// kept by day 2 (the second ISO is desired state, so a later sync plans nothing).
import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import fc from "fast-check";
import { loadNetboxConfig, NetboxConfigError, parseNetboxConfig } from "../../src/sources/netbox/config.js";
import { mapRecord } from "../../src/sources/netbox/mapping.js";
import type { NetboxVmRecord } from "../../src/sources/netbox/records.js";
import { formatIssue } from "../../src/sources/spec/errors.js";
import { DEMO_CONFIG, WINDOWS_CONFIG } from "./fixtures.js";
import { obj } from "../support/netbox-http.js";
import { type NetboxLab, startNetboxLab } from "../support/netbox-lab.js";

const VMS = "virtualization/virtual-machines";

function problems(text: string): string[] {
  try {
    parseNetboxConfig(text, "nb.yaml");
  } catch (e) {
    assert.ok(e instanceof NetboxConfigError, String(e));
    assert.doesNotMatch(e.userMessage(), /\n\s+at /);
    return e.issues.map(formatIssue);
  }
  return assert.fail("accepted");
}

/** A Windows record as records.ts reads it: two virtual disks, two interfaces (one with an MTU). */
function windowsRecord(): NetboxVmRecord {
  return {
    vm: {
      id: 42,
      name: "win-01",
      status: { value: "planned" },
      cluster: { name: "pve-lab" },
      platform: { slug: "windows-2022" },
      vcpus: 4,
      memory: 8192,
      tags: [],
    },
    disks: [
      { id: 7, name: "system", size: 64000 },
      { id: 8, name: "data", size: 10000 },
    ],
    interfaces: [
      { id: 3, name: "eth0", mtu: 9000, mode: { value: "access" }, untagged_vlan: { vid: 20 } },
      { id: 4, name: "eth1", mtu: 9000 },
    ],
  } as unknown as NetboxVmRecord;
}

describe("platform templates", () => {
  test("a Windows platform says what a spec VM says, and a record of it maps to all of it", () => {
    const config = parseNetboxConfig(WINDOWS_CONFIG, "netbox.yaml");
    const r = mapRecord(windowsRecord(), config);
    assert.ok(r.ok, JSON.stringify(r));
    assert.ok(r.spec.kind === "vm");
    const spec = r.spec;
    assert.equal(spec.ostype, "win11");
    assert.equal(spec.machine, "q35");
    assert.equal(spec.onboot, true);
    assert.equal(spec.scsihw, "virtio-scsi-single");
    assert.deepEqual(spec.agent, { enabled: true });
    assert.deepEqual(spec.efidisk, { storage: "local-lvm", efitype: "4m", preEnrolledKeys: true });
    assert.deepEqual(spec.tpm, { storage: "local-lvm", version: "v2.0" });
    assert.deepEqual(spec.cdroms, { ide2: { iso: "local:iso/windows-2022.iso" }, ide0: { iso: "local:iso/virtio-win.iso" } });
    assert.deepEqual(spec.extraConfig, { rng0: "source=/dev/urandom" });
    // The record's sizes and storage, the platform's options; scsi1 has its own cache on top.
    assert.deepEqual(spec.disks, {
      scsi0: { storage: "local-lvm", sizeBytes: 64000 * 2 ** 20, options: { discard: "on", ssd: true, iothread: true } },
      scsi1: {
        storage: "local-lvm",
        sizeBytes: 10000 * 2 ** 20,
        options: { discard: "on", ssd: true, iothread: true, cache: "writeback" },
      },
    });
    // e1000 takes no MTU: NetBox's is not sent (PVE applies it to virtio only).
    assert.deepEqual(spec.nics, { net0: { model: "e1000", bridge: "vmbr0", tag: 20 }, net1: { model: "e1000", bridge: "vmbr0" } });
    assert.equal(spec.cores, 4);
    assert.equal(spec.memory, 8192);
    assert.deepEqual(spec.tags, ["netbox", "netbox-disk-7-scsi0", "netbox-disk-8-scsi1", "netbox-vm-42", "windows"]);
  });

  test("property: whatever the record, it keeps what NetBox holds and every disk and NIC gets the platform's options", () => {
    const config = parseNetboxConfig(WINDOWS_CONFIG, "netbox.yaml");
    const recordArb = fc.record({
      sizes: fc.array(fc.integer({ min: 1, max: 10 ** 6 }), { minLength: 1, maxLength: 8 }),
      nics: fc.array(
        fc.record({
          vid: fc.option(fc.integer({ min: 1, max: 4094 }), { nil: undefined }),
          mtu: fc.option(fc.integer({ min: 576, max: 9000 }), { nil: undefined }),
        }),
        { maxLength: 6 },
      ),
      vcpus: fc.integer({ min: 1, max: 64 }),
      memory: fc.integer({ min: 16, max: 10 ** 6 }),
    });
    fc.assert(
      fc.property(recordArb, ({ sizes, nics, vcpus, memory }) => {
        const record = windowsRecord();
        Object.assign(record.vm, { vcpus, memory });
        record.disks = sizes.map((size, i) => ({ id: 100 + i, name: `d${i}`, size })) as NetboxVmRecord["disks"];
        record.interfaces = nics.map((n, i) => ({
          id: 200 + i,
          name: `eth${i}`,
          mtu: n.mtu ?? null,
          ...(n.vid !== undefined ? { mode: { value: "access" }, untagged_vlan: { vid: n.vid } } : {}),
        })) as unknown as NetboxVmRecord["interfaces"];
        const r = mapRecord(record, config);
        assert.ok(r.ok && r.spec.kind === "vm", JSON.stringify(r));
        assert.equal(r.spec.cores, vcpus);
        assert.equal(r.spec.memory, memory);
        const disks = Object.entries(r.spec.disks);
        assert.deepEqual(
          disks.map(([, d]) => d.sizeBytes),
          sizes.map((size) => size * 2 ** 20),
        );
        for (const [slot, d] of disks) {
          assert.ok(!["ide0", "ide2"].includes(slot));
          assert.equal(d.storage, "local-lvm");
          assert.deepEqual(
            { discard: d.options.discard, ssd: d.options.ssd, iothread: d.options.iothread },
            { discard: "on", ssd: true, iothread: true },
          );
        }
        assert.deepEqual(
          Object.values(r.spec.nics).map((n) => n.tag),
          nics.map((n) => n.vid),
        );
        for (const nic of Object.values(r.spec.nics)) assert.deepEqual([nic.model, nic.mtu], ["e1000", undefined]);
        assert.deepEqual(Object.keys(r.spec.cdroms).sort(), ["ide0", "ide2"]);
      }),
      { numRuns: 60 },
    );
  });

  test("the record wins: sockets split its vCPUs, a per-slot NIC model replaces the platform's", () => {
    const text = WINDOWS_CONFIG.replace(
      "      onboot: true\n",
      "      onboot: true\n      sockets: 2\n      nics:\n        net1: { model: virtio, firewall: true }\n",
    );
    const r = mapRecord(windowsRecord(), parseNetboxConfig(text, "netbox.yaml"));
    assert.ok(r.ok && r.spec.kind === "vm", JSON.stringify(r));
    assert.equal(r.spec.cores, 2);
    assert.equal(r.spec.sockets, 2);
    assert.deepEqual(r.spec.nics.net1, { model: "virtio", bridge: "vmbr0", mtu: 9000, firewall: true });
    const odd = windowsRecord();
    odd.vm.vcpus = 3;
    const refused = mapRecord(odd, parseNetboxConfig(text, "netbox.yaml"));
    assert.equal(refused.ok, false);
    assert.match(
      refused.ok ? "" : refused.errors.join("\n"),
      /vcpus 3 cannot be spread evenly over the 2 sockets `platforms\.windows-2022\.vm\.sockets`/,
    );
  });

  test("a bad template is reported at its config lines, every problem at once, with what to do", () => {
    const text = [
      "clusters:",
      "  lab: { node: pve1, storage: local-lvm, bridge: vmbr0 }",
      "platforms:",
      "  win:",
      "    ostype: win11",
      "    iso: local:iso/win.iso",
      "    vm:",
      "      name: win",
      "      onbot: true",
      "      cdroms: { ide2: { iso: local:iso/other.iso } }",
      "      disks: { scsi0: { size: 40G, discard: true } }",
      "      nics: { net0: { tag: 5 } }",
      "      tpm: { version: v3 }",
      "",
    ].join("\n");
    assert.deepEqual(problems(text), [
      "nb.yaml:8:7: platforms.win.vm.name: `name` is the record's: it comes from the record's name; leave it out of the platform's template",
      "nb.yaml:9:7: platforms.win.vm.onbot: unknown key `onbot`; did you mean `onboot`?",
      "nb.yaml:10:17: platforms.win.vm.cdroms.ide2: `platforms.win.iso` says this already; say it in one place",
      "nb.yaml:11:25: platforms.win.vm.disks.scsi0.size: `size` is the record's: it comes from the record's virtual disk; leave it out of the platform's template",
      "nb.yaml:12:23: platforms.win.vm.nics.net0.tag: `tag` is the record's: it comes from the interface's untagged VLAN; leave it out of the platform's template",
      "nb.yaml:13:23: platforms.win.vm.tpm.version: `v3` is not one of v1.2, v2.0",
    ]);
  });

  test("the spec's checks after the schema: drive options per bus, EFI without OVMF, extraConfig against PVE's schema", () => {
    const text = [
      "clusters:",
      "  lab: { node: pve1, storage: local-lvm, bridge: vmbr0 }",
      "platforms:",
      "  lin:",
      "    ostype: l26",
      "    diskBus: virtio",
      "    diskOptions: { ssd: true }",
      "    vm:",
      "      efidisk: { preEnrolledKeys: true }",
      "      extraConfig: { rng0: bogus }",
      "",
    ].join("\n");
    const found = problems(text);
    assert.equal(found.length, 3, found.join("\n"));
    assert.match(found[0]!, /^nb\.yaml:7:20: platforms\.lin\.diskOptions\.ssd: PVE's virtio drives have no `ssd` option/);
    assert.match(found[1]!, /^nb\.yaml:9:7: platforms\.lin\.vm\.efidisk: an EFI disk needs `bios: ovmf`/);
    assert.match(found[2]!, /^nb\.yaml:10:28: platforms\.lin\.vm\.extraConfig\.rng0: PVE would refuse "bogus"/);
  });

  test("a boot order names the record's devices and the platform's drives, not the stand-ins the check uses", () => {
    const base = "clusters:\n  lab: { node: pve1, storage: local-lvm, bridge: vmbr0 }\nplatforms:\n  a:\n    ostype: l26\n";
    assert.ok(
      parseNetboxConfig(`${base}    iso: local:iso/a.iso\n    vm: { boot: [ide2, scsi0, net0] }\n`, "nb.yaml").platforms.a?.template,
    );
    assert.deepEqual(problems(`${base}    vm: { boot: [ide2, scsi0] }\n`), [
      "nb.yaml:6:18: platforms.a.vm.boot[0]: `ide2` is not a disk, CD-ROM or NIC of this VM (the record's disks are scsi0, scsi1 …, its NICs net0, net1 …)",
    ]);
  });

  test("platforms without the new keys load as before; the shipped example's Windows platform loads", async () => {
    const config = parseNetboxConfig(DEMO_CONFIG, "netbox.yaml");
    assert.equal(config.platforms["debian-13"]?.template, undefined);
    const example = await loadNetboxConfig(new URL("../../examples/netbox/netbox.yaml", import.meta.url).pathname);
    assert.deepEqual(example.platforms["windows-2022"]?.template?.cdroms, { ide0: { iso: "local:iso/virtio-win.iso" } });
  });

  test("cloud-init keys in the template give the VM its drive; a clone platform manages the template's CD-ROMs", () => {
    const text = DEMO_CONFIG.replace(
      "  ubuntu-24-04:\n    ostype: l26\n    image: local:import/noble.qcow2\n",
      "  ubuntu-24-04:\n    clone: { from: 9000 }\n    vm:\n      cloudInit: { user: ops, slot: ide0 }\n      cdroms: { ide2: {} }\n",
    );
    const record = windowsRecord();
    record.vm.platform = { slug: "ubuntu-24-04" } as NetboxVmRecord["vm"]["platform"];
    const r = mapRecord(record, parseNetboxConfig(text, "netbox.yaml"));
    assert.ok(r.ok && r.spec.kind === "vm", JSON.stringify(r));
    assert.equal(r.spec.cloudInit?.user, "ops");
    assert.equal(r.spec.cloudInit?.slot, "ide0");
    assert.deepEqual(r.spec.cloudInit?.ipconfig, { ipconfig0: { ip: "dhcp" } });
    assert.deepEqual(r.spec.cdroms, { ide2: {} });
    assert.deepEqual(r.spec.unmanaged ?? [], [], "CD-ROMs and cloud-init managed");
  });
});

const CT_TEMPLATE = `platforms:
  debian-ct:
    container:
      ostemplate: local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst
      swap: 256
    ct:
      onboot: true
      protection: true
      timezone: Europe/Berlin
      tags: [lxc]
      rootfs: { quota: true }
      mounts:
        mp0: { backup: false }
      nics:
        net0: { firewall: true }
      extraConfig: { tty: 4 }
`;

describe("container platform templates", () => {
  test("a container platform takes a spec container's keys; a record's container gets them, the record's sizes and names kept", () => {
    const config = parseNetboxConfig(DEMO_CONFIG.replace("platforms:\n", CT_TEMPLATE), "netbox.yaml");
    const record = windowsRecord();
    record.vm.platform = { slug: "debian-ct" } as NetboxVmRecord["vm"]["platform"];
    record.disks[1]!.name = "/data";
    const r = mapRecord(record, config);
    assert.ok(r.ok && r.spec.kind === "container", JSON.stringify(r));
    const ct = r.spec;
    assert.equal(ct.options.onboot, "1");
    assert.equal(ct.options.protection, "1");
    assert.equal(ct.options.timezone, "Europe/Berlin");
    assert.equal(ct.options.tty, "4");
    assert.equal(ct.options.swap, "256");
    assert.equal(ct.options.cores, "4");
    assert.equal(ct.rootfs?.sizeBytes, 64000 * 2 ** 20);
    assert.equal(ct.rootfs?.options.quota, "1");
    assert.deepEqual(ct.mounts.mp0?.mountpoint, "/data");
    assert.equal(ct.mounts.mp0?.options.backup, "0");
    assert.equal(ct.nics.net0?.options.firewall, "1");
    assert.equal(ct.nics.net0?.options.tag, "20");
    assert.ok(ct.tags?.includes("lxc"));
  });

  test("a container template that sets what the record or `container:` holds is refused at its line", () => {
    const text = DEMO_CONFIG.replace(
      "platforms:\n",
      CT_TEMPLATE.replace("      onboot: true\n", "      hostname: x\n      swap: 512\n      onbot: true\n").replace(
        "mp0: { backup: false }",
        "mp0: { size: 4G }",
      ),
    );
    const found = problems(text);
    assert.deepEqual(
      found.map((line) => line.replace(/^netbox\.yaml|^nb\.yaml/, "")),
      [
        ":15:7: platforms.debian-ct.ct.hostname: `hostname` is the record's: it comes from the record's name; leave it out of the platform's template",
        ":16:7: platforms.debian-ct.ct.swap: `container.swap` says this already; say it in one place",
        ":17:7: platforms.debian-ct.ct.onbot: unknown key `onbot`; did you mean `onboot`?",
        ":23:16: platforms.debian-ct.ct.mounts.mp0.size: `size` is the record's: it comes from the record's virtual disk; leave it out of the platform's template",
      ],
    );
  });
});

describe("platform templates against the simulator", () => {
  let lab: NetboxLab;
  afterEach(() => lab.close());

  test("cloud-init only in the template: the record's allocated address goes into the guest, as with `cloudInit:`", async () => {
    lab = await startNetboxLab(
      DEMO_CONFIG.replace(
        "    image: local:import/noble.qcow2\n",
        "    image: local:import/noble.qcow2\n    vm: { cloudInit: { user: ops } }\n",
      ),
    );
    const report = await lab.sync();
    const db = report.records.find((r) => r.name === "db-01");
    assert.equal(db?.result, "staged", JSON.stringify(db));
    const config = (await lab.pve.request("GET", `/nodes/pve1/qemu/${db?.vmid}/config`)) as Record<string, unknown>;
    assert.equal(config.ciuser, "ops");
    assert.match(String(config.ipconfig0), /^gw=10\.20\.0\.1,ip=10\.20\.0\.\d+\/24$/, "the address sync allocated, not dhcp");
  });

  test("a Windows record builds with everything its platform says; day 2 plans nothing (the driver ISO is kept)", async () => {
    const isos = ["local:iso/debian-13-netinst.iso", "local:import/noble.qcow2", "local:iso/windows-2022.iso", "local:iso/virtio-win.iso"];
    lab = await startNetboxLab(`${WINDOWS_CONFIG}select:\n  status: [planned, staged]\n`, { config: { content: isos } });
    const platform = lab.nb.admin.idOf("dcim/platforms", { slug: "windows-2022" });
    const cluster = lab.nb.admin.idOf("virtualization/clusters", { name: "pve-lab" });
    const win = lab.nb.admin.create(VMS, { name: "win-01", status: "planned", cluster, platform, vcpus: 4, memory: 8192 });
    lab.nb.admin.create("virtualization/virtual-disks", { virtual_machine: win.id, name: "system", size: 64000 });
    lab.nb.admin.create("virtualization/virtual-disks", { virtual_machine: win.id, name: "data", size: 10000 });
    lab.nb.admin.create("virtualization/interfaces", { virtual_machine: win.id, name: "eth0" });

    const built = await lab.sync();
    const outcome = built.records.find((r) => r.name === "win-01");
    assert.equal(outcome?.result, "staged", JSON.stringify(outcome));
    const vmid = Number(obj(lab.nb.admin.get(VMS, Number(win.id))?.custom_fields).proxmox_vmid);
    const config = (await lab.pve.request("GET", `/nodes/pve1/qemu/${vmid}/config`)) as Record<string, string | number>;
    assert.equal(config.ostype, "win11");
    assert.equal(config.bios, "ovmf");
    assert.equal(config.machine, "q35");
    assert.equal(Number(config.onboot), 1);
    assert.equal(config.scsihw, "virtio-scsi-single");
    assert.equal(config.rng0, "/dev/urandom"); // PVE prints the default key without its name
    assert.match(String(config.efidisk0), /efitype=4m/);
    assert.match(String(config.efidisk0), /pre-enrolled-keys=1/);
    assert.match(String(config.tpmstate0), /version=v2\.0/);
    assert.match(String(config.ide2), /^local:iso\/windows-2022\.iso,media=cdrom/);
    assert.match(String(config.ide0), /^local:iso\/virtio-win\.iso,media=cdrom/);
    for (const slot of ["scsi0", "scsi1"])
      for (const option of ["discard=on", "iothread=1", "ssd=1"])
        assert.ok(String(config[slot]).includes(option), `${slot}: ${config[slot]}`);
    assert.match(String(config.scsi1), /cache=writeback/);
    assert.match(String(config.net0), /^e1000=/);

    const steps: string[] = [];
    const again = await lab.sync({ onPlan: (_c, plan) => steps.push(...plan.guests.flatMap((g) => g.steps.map((s) => s.summary))) });
    const day2 = again.records.find((r) => r.name === "win-01");
    assert.equal(day2?.result, "converged", JSON.stringify(day2));
    assert.equal(day2?.guestResult, "unchanged");
    assert.deepEqual(steps, [], "day 2 plans nothing: the driver ISO on ide0 is part of the platform");
  });
});
