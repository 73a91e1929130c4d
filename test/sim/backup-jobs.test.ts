// The simulator's /cluster/backup jobs as PVE 9 answers them (pve-manager Backup.pm).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Harness, rejects } from "./guests-harness.js";

type Row = Record<string, unknown>;

describe("/cluster/backup jobs (PVE 9)", () => {
  it("gives a job without an id PVE's backup-<8 hex>-<4 hex> id", async () => {
    const h = new Harness();
    await h.call("POST", "/cluster/backup", { schedule: "02:00", all: 1 });
    const [job] = (await h.call("GET", "/cluster/backup")) as Row[];
    assert.match(String(job?.id), /^backup-[0-9a-f]{8}-[0-9a-f]{4}$/);
  });

  it("checks the schedule with PVE's calendar event parser and computes next-run from it", async () => {
    const h = new Harness();
    await rejects(
      h.call("POST", "/cluster/backup", { id: "job1", schedule: "weekdays 2am", vmid: "100" }),
      400,
      "Parameter verification failed.",
      {
        schedule:
          "invalid format - invalid calendar event 'weekdays 2am' - unable to parse calendar event: 'weekdays' is not a weekday (mon..sun)\n",
      },
    );
    await h.call("POST", "/cluster/backup", { id: "job1", schedule: "*/15", vmid: "100" });
    const job = (await h.call("GET", "/cluster/backup/job1")) as Row;
    const next = new Date(Number(job["next-run"]) * 1000);
    assert.equal(next.getUTCMinutes() % 15, 0);
    assert.equal(next.getUTCSeconds(), 0);
    await h.call("POST", "/cluster/backup", { id: "job2", schedule: "sat 03:30", vmid: "100" });
    const weekly = new Date(Number(((await h.call("GET", "/cluster/backup/job2")) as Row)["next-run"]) * 1000);
    assert.deepEqual([weekly.getUTCDay(), weekly.getUTCHours(), weekly.getUTCMinutes()], [6, 3, 30]);
  });

  it("applies PVE's selection rules", async () => {
    const h = new Harness();
    await rejects(
      h.call("POST", "/cluster/backup", { id: "sel", schedule: "daily", vmid: "100", all: 1 }),
      400,
      "Parameter verification failed.",
      {
        all: "option conflicts with option 'vmid'",
      },
    );
    await rejects(
      h.call("POST", "/cluster/backup", { id: "sel", schedule: "daily", vmid: "100", pool: "web" }),
      400,
      "Parameter verification failed.",
      {
        pool: "option conflicts with option 'vmid'",
      },
    );
    await rejects(h.call("POST", "/cluster/backup", { id: "sel", schedule: "daily" }), 400, "Parameter verification failed.", {
      vmid: "property is missing",
    });
    // exclude implies all
    await h.call("POST", "/cluster/backup", { id: "sel", schedule: "daily", exclude: "105" });
    assert.equal(((await h.call("GET", "/cluster/backup/sel")) as Row).all, 1);
    // setting vmid drops all and exclude; a refused update changes nothing
    await h.call("PUT", "/cluster/backup/sel", { vmid: "100,101" });
    const job = (await h.call("GET", "/cluster/backup/sel")) as Row;
    assert.equal(job.all, undefined);
    assert.equal(job.exclude, undefined);
    await rejects(h.call("PUT", "/cluster/backup/sel", { delete: "vmid" }), 400, "Parameter verification failed.", {
      vmid: "property is missing",
    });
    assert.equal(((await h.call("GET", "/cluster/backup/sel")) as Row).vmid, "100,101");
  });

  it("answers property strings as objects", async () => {
    const h = new Harness();
    await h.call("POST", "/cluster/backup", {
      id: "props",
      schedule: "daily",
      all: 1,
      "prune-backups": "keep-last=3,keep-daily=7",
      fleecing: "1,storage=local-lvm",
    });
    const job = (await h.call("GET", "/cluster/backup/props")) as Row;
    assert.deepEqual(job["prune-backups"], { "keep-last": 3, "keep-daily": 7 });
    assert.deepEqual(job.fleecing, { enabled: 1, storage: "local-lvm" });
  });
});
