// A NetBox record edited while its guest is built (issue #37): write-back PATCHes the record
// with If-Match, re-reads it on a 412 and never sets `staged` over an operator's edit. A change
// to a field the build used (status, memory ...) leaves the record as the operator made it,
// with a journal entry saying what changed, reported `changed`; the next sync converges it. A
// change to a field pvectl does not build from (comments) does not stop the record. Without
// ETags (NetBox < 4.6) the record is read again before each write; a lost answer is read back.
import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import type { SyncOptions } from "../../src/app/netbox/sync.js";
import { NetboxClient, type NetboxResponse, type RequestOptions } from "../../src/netbox/client.js";
import { NetboxConnectionError } from "../../src/netbox/errors.js";
import { obj } from "../support/netbox-http.js";
import { DEMO_CONFIG } from "./fixtures.js";
import { type NetboxLab, startNetboxLab } from "../support/netbox-lab.js";

const VMS = "virtualization/virtual-machines";

function record(lab: NetboxLab, name: string): Record<string, unknown> {
  const [vm] = lab.nb.admin.list(VMS, { name });
  assert.ok(vm, `no record ${name}`);
  return vm;
}

function journal(lab: NetboxLab, vmId: unknown): { kind: string; comments: string }[] {
  return lab.nb.admin
    .list("extras/journal-entries", { assigned_object_id: String(vmId) })
    .map((j) => ({ kind: String(obj(j.kind).value), comments: String(j.comments) }));
}

/** A sync during which `edit` is made to the record `name` once its guest's first step has started (the build is under way). */
function editDuringBuild(lab: NetboxLab, name: string, edit: Record<string, unknown>): Partial<SyncOptions> {
  const id = Number(record(lab, name).id);
  let done = false;
  return {
    onEvent: (e) => {
      if (done || e.type !== "step-start" || e.guest.key !== name) return;
      done = true;
      lab.nb.admin.update(VMS, id, edit);
    },
  };
}

/**
 * A sync whose NetBox client makes `edit` to the record `name` right after write-back set the
 * record's primary IPv4: the last write before the status, so only the status write can see it.
 */
function editDuringWriteBack(lab: NetboxLab, name: string, edit: Record<string, unknown>): Partial<SyncOptions> {
  const id = Number(record(lab, name).id);
  const path = `${VMS}/${id}/`;
  let done = false;
  class EditingClient extends NetboxClient {
    override async request<T>(method: string, at: string, options: RequestOptions = {}): Promise<NetboxResponse<T>> {
      const res = await super.request<T>(method, at, options);
      if (!done && method === "PATCH" && at === path && (options.body as { primary_ip4?: number } | undefined)?.primary_ip4 !== undefined) {
        done = true;
        lab.nb.admin.update(VMS, id, edit);
      }
      return res;
    }
  }
  return { netbox: new EditingClient({ url: lab.nb.url, token: lab.nb.token }) };
}

/** A sync whose NetBox client loses the answer to the record's status PATCH after NetBox applied it. */
function loseStatusAnswer(lab: NetboxLab, name: string): Partial<SyncOptions> {
  const path = `${VMS}/${String(record(lab, name).id)}/`;
  class LosingClient extends NetboxClient {
    override async request<T>(method: string, at: string, options: RequestOptions = {}): Promise<NetboxResponse<T>> {
      const res = await super.request<T>(method, at, options);
      if (method === "PATCH" && at === path && (options.body as { status?: string } | undefined)?.status !== undefined)
        throw new NetboxConnectionError(lab.nb.url, "ECONNRESET");
      return res;
    }
  }
  return { netbox: new LosingClient({ url: lab.nb.url, token: lab.nb.token }) };
}

/** PATCHes of the record that NetBox refused with 412 (a stale If-Match). */
function staleWrites(lab: NetboxLab, vmId: unknown): number {
  return lab.nb.admin.requests.filter((r) => r.method === "PATCH" && r.path === `/api/${VMS}/${String(vmId)}/` && r.status === 412).length;
}

describe("netbox sync: a record edited while its guest is built", () => {
  let lab: NetboxLab;
  afterEach(() => lab.close());

  test("set to decommissioning during the build: not overwritten with staged, journalled, reported changed", async () => {
    lab = await startNetboxLab();
    const report = await lab.sync(editDuringBuild(lab, "web-01", { status: "decommissioning" }));
    const web = report.records.find((r) => r.name === "web-01");
    assert.equal(web?.result, "changed", JSON.stringify(web));
    assert.equal(web?.status, "decommissioning");
    assert.deepEqual(web?.changes, ["status planned -> decommissioning"]);
    // Nothing failed: the other records are staged, the run is ok (exit code 3: see docs).
    assert.equal(report.ok, true);
    assert.deepEqual(
      report.records.filter((r) => r.name !== "web-01").map((r) => r.result),
      ["staged", "staged"],
    );

    const vm = record(lab, "web-01");
    assert.equal(obj(vm.status).value, "decommissioning");
    // The guest exists: its vmid and address describe it, so they are written (decommission finds it by vmid).
    assert.equal(obj(vm.custom_fields).proxmox_vmid, web?.vmid);
    assert.deepEqual((await lab.pveGuests()).get("web-01"), [web?.vmid]);
    const note = journal(lab, vm.id).at(-1);
    assert.equal(note?.kind, "warning");
    assert.match(note?.comments ?? "", /changed while it was built: status planned -> decommissioning/);
    assert.match(note?.comments ?? "", /not set to staged/);
  });

  test("memory edited during the build: status stays planned, reported; the next sync converges memory and stages it", async () => {
    lab = await startNetboxLab();
    const before = Number(record(lab, "web-01").memory);
    const report = await lab.sync(editDuringBuild(lab, "web-01", { memory: before * 2 }));
    const web = report.records.find((r) => r.name === "web-01");
    assert.equal(web?.result, "changed", JSON.stringify(web));
    assert.equal(web?.status, "planned");
    assert.deepEqual(web?.changes, [`memory ${before} -> ${before * 2}`]);
    const vm = record(lab, "web-01");
    assert.equal(obj(vm.status).value, "planned");
    assert.match(
      journal(lab, vm.id).at(-1)?.comments ?? "",
      new RegExp(`changed while it was built: memory ${before} -> ${before * 2}.*the next sync converges`),
    );
    const vmid = Number(obj(vm.custom_fields).proxmox_vmid);
    assert.equal(vmid, web?.vmid);
    const built = (await lab.pve.request("GET", `/nodes/pve1/qemu/${vmid}/config`)) as Record<string, unknown>;
    assert.equal(Number(built.memory), before, "the guest was built from the record as selected");

    const next = await lab.sync();
    const again = next.records.find((r) => r.name === "web-01");
    assert.equal(again?.result, "staged", JSON.stringify(again));
    assert.equal(again?.vmid, vmid);
    const converged = (await lab.pve.request("GET", `/nodes/pve1/qemu/${vmid}/config`)) as Record<string, unknown>;
    assert.equal(Number(converged.memory), before * 2);
    assert.equal(obj(record(lab, "web-01").status).value, "staged");
    assert.deepEqual((await lab.pveGuests()).get("web-01"), [vmid]);
  });

  test("a field pvectl does not build from (comments) edited during the build: staged as usual, the comment kept", async () => {
    lab = await startNetboxLab();
    const report = await lab.sync(editDuringBuild(lab, "web-01", { comments: "rack B, ask Jo" }));
    const web = report.records.find((r) => r.name === "web-01");
    assert.equal(web?.result, "staged", JSON.stringify(web));
    const vm = record(lab, "web-01");
    assert.equal(obj(vm.status).value, "staged");
    assert.equal(vm.comments, "rack B, ask Jo");
  });

  test("comments edited during the write-back: the stale write gets a 412, is retried from a fresh read, staged", async () => {
    lab = await startNetboxLab();
    const report = await lab.sync(editDuringWriteBack(lab, "web-01", { comments: "rack B" }));
    const web = report.records.find((r) => r.name === "web-01");
    assert.equal(web?.result, "staged", JSON.stringify(web));
    const vm = record(lab, "web-01");
    assert.equal(obj(vm.status).value, "staged");
    assert.equal(vm.comments, "rack B");
    assert.ok(staleWrites(lab, vm.id) >= 1, "a write to the record met a 412 and was retried");
  });

  test("set to decommissioning during the write-back: the status write gets a 412 and is not sent again", async () => {
    lab = await startNetboxLab();
    const report = await lab.sync(editDuringWriteBack(lab, "web-01", { status: "decommissioning" }));
    const web = report.records.find((r) => r.name === "web-01");
    assert.equal(web?.result, "changed", JSON.stringify(web));
    assert.deepEqual(web?.changes, ["status planned -> decommissioning"]);
    const vm = record(lab, "web-01");
    assert.equal(obj(vm.status).value, "decommissioning");
    assert.ok(staleWrites(lab, vm.id) >= 1);
    // The address still describes the guest that was built.
    assert.match(String(obj(vm.primary_ip4).address), /^10\.20\.0\.\d+\/24$/);
  });

  test("without ETags (NetBox 4.5) the record is read again right before the status write: decommissioning is kept", async () => {
    lab = await startNetboxLab(DEMO_CONFIG, {}, { version: "4.5.0" });
    const report = await lab.sync(editDuringWriteBack(lab, "web-01", { status: "decommissioning" }));
    const web = report.records.find((r) => r.name === "web-01");
    assert.equal(web?.result, "changed", JSON.stringify(web));
    assert.equal(obj(record(lab, "web-01").status).value, "decommissioning");
  });

  test("a status write whose answer was lost is read back, not sent again: staged", async () => {
    lab = await startNetboxLab();
    const id = record(lab, "web-01").id;
    const report = await lab.sync(loseStatusAnswer(lab, "web-01"));
    const web = report.records.find((r) => r.name === "web-01");
    assert.equal(web?.result, "staged", JSON.stringify(web));
    assert.equal(obj(record(lab, "web-01").status).value, "staged");
    const statusWrites = lab.nb.admin.requests.filter(
      (r) => r.method === "PATCH" && r.path === `/api/${VMS}/${String(id)}/` && r.status === 200,
    );
    // vmid, primary IPv4, status: each once.
    assert.equal(statusWrites.length, 3);
  });
});
