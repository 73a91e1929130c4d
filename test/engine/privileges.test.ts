import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { callNeeds, granted, missingPrivileges, stepNeeds } from "../../src/engine/privileges.js";
import type { Step } from "../../src/plan/types.js";
import { qemuCalls } from "../../src/resources/qemu/calls.js";

describe("privileges a step needs", () => {
  it("a config change needs the schema's check plus one privilege per key, storage and bridge", () => {
    const needs = callNeeds(
      qemuCalls.config("pve1", 100, {
        memory: "4096",
        cores: "2",
        scsi1: "local-lvm:8,discard=on",
        net1: "model=virtio,bridge=vmbr1,tag=20",
        ciuser: "debian",
      }),
    );
    assert.deepEqual(
      needs.map((n) => `${n.path} ${n.anyOf ? n.anyOf.join("|") : n.privilege}`),
      [
        "/vms/100 VM.Config.Disk|VM.Config.CDROM|VM.Config.CPU|VM.Config.Memory|VM.Config.Network|VM.Config.HWType|VM.Config.Options|VM.Config.Cloudinit",
        "/vms/100 VM.Config.Memory",
        "/vms/100 VM.Config.CPU",
        "/vms/100 VM.Config.Disk",
        "/storage/local-lvm Datastore.AllocateSpace",
        "/vms/100 VM.Config.Network",
        "/sdn/zones/localnetwork/vmbr1 SDN.Use",
        "/vms/100 VM.Config.Cloudinit|VM.Config.Network",
      ],
    );
  });

  it("a create with start needs VM.Allocate and VM.PowerMgmt on the new vmid; its drives no VM.Config.* (qemu-server's create_vm checks none)", () => {
    const needs = callNeeds(qemuCalls.create("pve1", { vmid: 300, name: "x", start: 1, ide2: "local:iso/d.iso,media=cdrom" })).map(
      (n) => `${n.path} ${n.privilege}`,
    );
    assert.ok(needs.includes("/vms/300 VM.Allocate"));
    assert.ok(needs.includes("/vms/300 VM.PowerMgmt"));
    assert.ok(!needs.includes("/vms/300 VM.Config.CDROM"), needs.join(", "));
    // An existing ISO allocates nothing, but PVE's check_volume_access wants read access to its storage.
    const iso = callNeeds(qemuCalls.create("pve1", { vmid: 300, name: "x", ide2: "local:iso/d.iso,media=cdrom" })).filter(
      (n) => n.path === "/storage/local",
    );
    assert.deepEqual(
      iso.map((n) => n.anyOf),
      [["Datastore.AllocateSpace", "Datastore.Audit"]],
    );
  });

  it("an existing cloud-init volume is a cloud-init drive, not a CD-ROM, and an ISO named like an option stays a disk", () => {
    const needs = (params: Record<string, string>) =>
      callNeeds(qemuCalls.config("pve1", 100, params))
        .slice(1)
        .map((n) => (n.anyOf ? n.anyOf.join("|") : n.privilege));
    // qemu-server's update checks a cloud-init drive for both privileges (check_vm_perm without `any`).
    assert.deepEqual(needs({ ide2: "local-lvm:vm-100-cloudinit,media=cdrom" }), ["VM.Config.Cloudinit", "VM.Config.CDROM"]);
    assert.deepEqual(needs({ ide2: "local-lvm:cloudinit" }), ["VM.Config.Cloudinit", "VM.Config.CDROM", "Datastore.AllocateSpace"]);
    assert.deepEqual(needs({ scsi1: "local:100/media=cdrom.qcow2" }), ["VM.Config.Disk"]);
  });

  it("a disk added after a change any VM.Config.* privilege allows still needs VM.Config.Disk (needs with other alternatives are not merged)", () => {
    const steps = [
      { id: "tags", calls: [qemuCalls.config("pve1", 100, { tags: "a" })] },
      { id: "disk", calls: [qemuCalls.config("pve1", 100, { scsi1: "local-lvm:8" })] },
    ] as unknown as Step[];
    const dump = { "/vms/100": { "VM.Config.Options": 1 }, "/storage/local-lvm": { "Datastore.AllocateSpace": 1 } };
    assert.deepEqual(
      missingPrivileges(dump, stepNeeds(steps)).map((n) => `${n.stepId} ${n.path} ${n.anyOf ? n.anyOf.join("|") : n.privilege}`),
      ["disk /vms/100 VM.Config.Disk"],
    );
  });

  it("destroy and power steps take their privilege from the schema", () => {
    assert.deepEqual(
      callNeeds(qemuCalls.destroy("pve2", 120)).map((n) => `${n.path} ${n.privilege}`),
      ["/vms/120 VM.Allocate"],
    );
    assert.deepEqual(
      callNeeds(qemuCalls.power("pve2", 120, "shutdown", { timeout: 60 })).map((n) => `${n.path} ${n.privilege}`),
      ["/vms/120 VM.PowerMgmt"],
    );
  });
});

describe("evaluating GET /access/permissions", () => {
  const dump = {
    "/": { "Sys.Audit": 1 },
    "/vms": { "VM.Audit": 1, "VM.Config.Memory": 0 },
    "/vms/100": { "VM.Allocate": 0 },
    "/storage/local-lvm": { "Datastore.AllocateSpace": 1 },
  };

  it("uses a path's own entry, else the nearest listed ancestor's propagating privileges", () => {
    assert.equal(granted(dump, "/vms/100", "VM.Allocate"), true);
    assert.equal(granted(dump, "/vms/100", "VM.Audit"), false, "a listed path replaces what its ancestors give");
    assert.equal(granted(dump, "/vms/101", "VM.Audit"), true);
    assert.equal(granted(dump, "/vms/101", "VM.Config.Memory"), false, "not propagated from /vms");
    assert.equal(granted(dump, "/vms", "VM.Config.Memory"), true, "on its own path it applies");
    assert.equal(granted(dump, "/nodes/pve1", "Sys.Audit"), true);
    assert.equal(granted(dump, "/storage/shared", "Datastore.AllocateSpace"), false);
  });

  it("reports each missing (path, privilege) once, with the step that needs it", () => {
    const step: Step = {
      id: "web1/1-create",
      action: "create",
      severity: "configuration",
      summary: "create web1",
      changes: [],
      calls: [qemuCalls.create("pve1", { vmid: 101, memory: "512", scsi0: "local-lvm:4", net0: "model=virtio,bridge=vmbr0" })],
    };
    const missing = missingPrivileges(dump, stepNeeds([step])).map((n) => `${n.path} ${n.privilege} ${n.stepId}`);
    assert.deepEqual(missing, [
      "/vms/101 VM.Allocate web1/1-create",
      "/vms/101 VM.Config.Memory web1/1-create",
      "/vms/101 VM.Config.Network web1/1-create",
      "/sdn/zones/localnetwork/vmbr0 SDN.Use web1/1-create",
    ]);
  });
});
