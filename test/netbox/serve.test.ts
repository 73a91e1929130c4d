// pvectl netbox serve, the whole loop locally: a NetBox event rule and webhook point at serve;
// python3-pynetbox creates a planned record; the NetBox simulator posts the signed webhook;
// serve builds the guest and the record is staged. A forged signature, a replay, a stale and a
// malformed delivery are refused and logged, and nothing runs for them.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createHmac, randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { afterEach, describe, test } from "node:test";
import { type RunningServe, type ServeLog, startNetboxServe } from "../../src/app/netbox/serve.js";
import { obj } from "../support/netbox-http.js";
import { FAST_APPLY, type NetboxLab, pointNetboxAt, startNetboxLab } from "../support/netbox-lab.js";

const VMS = "virtualization/virtual-machines";
const SECRET = "s3cret-for-tests";

async function startServe(lab: NetboxLab, logs: ServeLog[]): Promise<RunningServe> {
  return startNetboxServe({
    config: lab.config,
    netbox: lab.netbox,
    pveClient: () => lab.pve,
    apply: FAST_APPLY,
    secret: SECRET,
    port: 0,
    reconcileMs: 0,
    reconcileAtStart: false,
    quietMs: 300,
    log: (e) => logs.push(e),
  });
}

async function until(what: string, check: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function signed(body: string, secret = SECRET): Record<string, string> {
  return { "Content-Type": "application/json", "X-Hook-Signature": createHmac("sha512", secret).update(body).digest("hex") };
}

describe("pvectl netbox serve", () => {
  let lab: NetboxLab;
  let serve: RunningServe | undefined;
  afterEach(async () => {
    await serve?.close();
    await lab.close();
  });

  test("a record pynetbox creates is built and staged by the webhook it triggers", async () => {
    lab = await startNetboxLab();
    const logs: ServeLog[] = [];
    serve = await startServe(lab, logs);
    pointNetboxAt(lab.nb, serve.url, SECRET);
    const script = [
      "import sys, pynetbox",
      "nb = pynetbox.api(sys.argv[1], token=sys.argv[2])",
      "cluster = nb.virtualization.clusters.get(name='pve-lab')",
      "platform = nb.dcim.platforms.get(slug='debian-13')",
      "vm = nb.virtualization.virtual_machines.create(name='app-01', status='planned', cluster=cluster.id, platform=platform.id, vcpus=1, memory=1024, disk=8000)",
      "nb.virtualization.interfaces.create(virtual_machine=vm.id, name='eth0')",
      "print(vm.id)",
    ].join("\n");
    const { stdout } = await promisify(execFile)("/usr/bin/python3", ["-c", script, lab.nb.url, lab.nb.token]);
    const id = Number(stdout.trim());
    await until("app-01 staged", () => obj(lab.nb.admin.get(VMS, id)?.status).value === "staged");
    await serve.idle();

    const vmid = Number(obj(lab.nb.admin.get(VMS, id)?.custom_fields).proxmox_vmid);
    const config = (await lab.pve.request("GET", `/nodes/pve1/qemu/${vmid}/config`)) as Record<string, unknown>;
    assert.equal(config.name, "app-01");
    assert.match(String(config.net0), /^virtio=[0-9A-F:]{17},bridge=vmbr0/, "the interface created after the VM is in the build");
    // Only the record the events named was built; the demo's planned records were left alone.
    assert.deepEqual(
      lab.nb.admin
        .list(VMS, { status: "planned" })
        .map((v) => v.name)
        .sort(),
      ["db-01", "web-01", "web-02"],
    );
    const deliveries = lab.nb.admin.webhookDeliveries.filter((d) => d.id === id);
    assert.ok(deliveries.length >= 1 && deliveries.every((d) => d.status === 202), JSON.stringify(deliveries));
    assert.ok(
      logs.some((l) => l.msg === "record" && l.record === id && l.result === "staged"),
      JSON.stringify(logs),
    );
    const health = (await (await fetch(`${serve.url}/healthz`)).json()) as { ok: boolean; syncs: number };
    assert.equal(health.ok, true);
    assert.ok(health.syncs >= 1);
  });

  test("forged, replayed, stale and malformed deliveries are refused and logged; nothing runs", async () => {
    lab = await startNetboxLab();
    const logs: ServeLog[] = [];
    serve = await startServe(lab, logs);
    const web = lab.nb.admin.list(VMS, { name: "web-01" })[0]!;
    const post = (body: string, headers: Record<string, string>) => fetch(`${serve!.url}/webhook`, { method: "POST", headers, body });
    const delivery = (timestamp = new Date().toISOString()) =>
      JSON.stringify({
        event: "updated",
        timestamp,
        model: "virtualmachine",
        username: "x",
        request_id: randomUUID(),
        data: { id: web.id },
        snapshots: {},
      });

    assert.equal((await post(delivery(), signed(delivery(), "wrong-secret"))).status, 401);
    assert.equal((await post(delivery(), { "Content-Type": "application/json" })).status, 401);
    const body = delivery();
    const tampered = body.replace(`"id":${String(web.id)}`, '"id":999');
    assert.equal((await post(tampered, signed(body))).status, 401);
    assert.equal((await post("{not json", signed("{not json"))).status, 400);
    const stale = delivery(new Date(Date.now() - 3600_000).toISOString());
    assert.equal((await post(stale, signed(stale))).status, 409);

    const good = delivery();
    assert.equal((await post(good, signed(good))).status, 202);
    assert.equal((await post(good, signed(good))).status, 409, "the same delivery again is a replay");
    await serve.idle();
    const refused = logs.filter((l) => l.msg === "webhook refused").map((l) => l.status);
    assert.deepEqual(refused, [401, 401, 401, 400, 409, 409]);
    // The one good delivery ran one sync of web-01; the refused ones ran nothing.
    assert.equal(serve.status().syncs, 1);
    assert.deepEqual(
      logs.filter((l) => l.msg === "sync started").map((l) => l.records),
      [[web.id]],
    );
  });

  test("/healthz follows the latest sync: a sync that fails outright answers 503, the next good one 200 again", async () => {
    lab = await startNetboxLab();
    const logs: ServeLog[] = [];
    serve = await startServe(lab, logs);
    const web = lab.nb.admin.list(VMS, { name: "web-01" })[0]!;
    const deliver = async () => {
      const body = JSON.stringify({
        event: "updated",
        timestamp: new Date().toISOString(),
        model: "virtualmachine",
        username: "x",
        request_id: randomUUID(),
        data: { id: web.id },
        snapshots: {},
      });
      assert.equal((await fetch(`${serve!.url}/webhook`, { method: "POST", headers: signed(body), body })).status, 202);
      await serve!.idle();
    };
    interface Health {
      ok: boolean;
      syncs: number;
      failures: number;
      lastSync?: { at: string; ok: boolean; error?: string };
      lastError?: { at: string; error: string };
    }
    const health = async (): Promise<[number, Health]> => {
      const res = await fetch(`${serve!.url}/healthz`);
      return [res.status, (await res.json()) as Health];
    };

    lab.nb.admin.failNext({
      method: "GET",
      path: /^\/api\/virtualization\/virtual-machines\//,
      status: 503,
      body: { detail: "Service unavailable" },
    });
    await deliver();
    const [downStatus, down] = await health();
    assert.equal(downStatus, 503);
    assert.equal(down.ok, false);
    assert.match(down.lastSync?.error ?? "", /503/);
    assert.equal(down.lastError?.at, down.lastSync?.at);

    await deliver();
    const [upStatus, up] = await health();
    assert.equal(upStatus, 200);
    assert.equal(up.ok, true, JSON.stringify(up));
    assert.equal(up.lastSync?.ok, true);
    assert.equal(up.lastSync?.error, undefined);
    assert.ok(Date.parse(up.lastSync?.at ?? "") >= Date.parse(down.lastSync?.at ?? ""));
    // The failure stays on record, with its time, after the service recovered.
    assert.equal(up.lastError?.at, down.lastError?.at);
    assert.deepEqual([up.syncs, up.failures], [1, 1]);
  });

  test("a malformed entry is refused alone; the records delivered with it are built", async () => {
    lab = await startNetboxLab();
    const logs: ServeLog[] = [];
    serve = await startServe(lab, logs);
    const web = lab.nb.admin.list(VMS, { name: "web-01" })[0]!;
    const post = async (data: Record<string, unknown>, model = "virtualmachine") => {
      const body = JSON.stringify({
        event: "updated",
        timestamp: new Date().toISOString(),
        model,
        username: "x",
        request_id: randomUUID(),
        data,
        snapshots: {},
      });
      const res = await fetch(`${serve!.url}/webhook`, { method: "POST", headers: signed(body), body });
      return [res.status, ((await res.json()) as { error?: string }).error] as const;
    };
    // Within one quiet window, so a bad id accepted would share web-01's sync.
    assert.deepEqual((await post({ id: web.id }))[0], 202);
    const [status, error] = await post({ id: 2.5 });
    assert.equal(status, 400);
    assert.match(
      error ?? "",
      /^the virtualmachine updated entry is not what NetBox sends: data\.id is 2\.5; a NetBox object id is a whole number from 1/,
    );
    assert.equal((await post({ id: 12, virtual_machine: { id: "web-01" } }, "vminterface"))[0], 400);
    await serve.idle();
    assert.deepEqual(
      logs.filter((l) => l.msg === "sync started").map((l) => l.records),
      [[web.id]],
    );
    assert.ok(
      logs.some((l) => l.msg === "record" && l.record === web.id && l.result === "staged"),
      JSON.stringify(logs),
    );
    assert.equal(obj(lab.nb.admin.get(VMS, Number(web.id))?.status).value, "staged");
    assert.deepEqual(
      logs.filter((l) => l.msg === "webhook refused").map((l) => l.status),
      [400, 400],
    );
  });
});
