// waitForTask: quick first polls then at most 1 s apart, immediate failure with the log's
// last lines (recorded PVE responses), WARNINGS as success, wall-clock timeout, bad UPIDs.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, beforeEach, describe, it } from "node:test";
import { PveClient, PveError } from "../../src/api/index.js";
import { pollDelay } from "../../src/api/tasks.js";
import { ok, pveError, type Reply, startServer, type TestServer } from "../support/api/server.js";

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), "utf8")) as Record<string, unknown>;

const CREATE_UPID = "UPID:pve:00000754:00009421:5FBE5DD2:vzcreate:100:root@pam:";
const DUMP_UPID = "UPID:pve:00000C8B:0000D780:5FBE5E7F:vzdump:100:root@pam:";
const START_UPID = "UPID:pve:000ABCDE:0098F0A1:66AB12CD:qmstart:100:automation@pve!ci:";

const running = (upid: string): Reply => ok({ upid, node: "pve", status: "running", type: "qmstart", id: "100", user: "root@pam" });
const stopped = (upid: string, exitstatus: string): Reply =>
  ok({ upid, node: "pve", status: "stopped", exitstatus, type: "qmstart", id: "100", user: "root@pam" });

describe("waitForTask", () => {
  let server: TestServer;
  let statuses: Map<string, Reply[]>;
  let logs: Map<string, Reply>;
  let client: PveClient;

  before(async () => {
    server = await startServer((req) => {
      const m = /^\/nodes\/([^/]+)\/tasks\/(.+)\/(status|log)$/.exec(req.path);
      if (!m) return pveError(501, `Method '${req.method} ${req.path}' not implemented`);
      const upid = m[2] as string;
      if (m[3] === "log") return logs.get(upid) ?? ok([], { total: 0 });
      const queue = statuses.get(upid);
      if (!queue) return pveError(400, "Parameter verification failed.", { upid: "no such task" });
      return queue.length > 1 ? (queue.shift() as Reply) : (queue[0] as Reply);
    });
    client = new PveClient({
      host: `http://127.0.0.1:${server.port}`,
      tokenId: "automation@pve!ci",
      tokenSecret: "0b9d7b8e-aaaa-bbbb-cccc-123456789abc",
    });
    await client.get("/version").catch(() => {}); // warm the connection so timings measure polling only
  });
  beforeEach(() => {
    server.seen.length = 0;
    statuses = new Map();
    logs = new Map();
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  it("polls quickly at first, then at most one second apart", () => {
    assert.ok(pollDelay(0) <= 100);
    const delays = Array.from({ length: 30 }, (_, i) => pollDelay(i));
    assert.ok(delays.every((d, i) => d <= 1000 && (i === 0 || d >= (delays[i - 1] as number))));
    assert.equal(delays.at(-1), 1000);
  });

  it("returns as soon as the task is stopped with OK (recorded vzdump task)", async () => {
    statuses.set(DUMP_UPID, [
      { body: { data: { ...(fixture("fog-proxmox__GET_nodes_NODE_tasks_UPID_status__05").data as object), status: "running" } } },
      { body: { data: { ...(fixture("fog-proxmox__GET_nodes_NODE_tasks_UPID_status__05").data as object), status: "running" } } },
      { body: fixture("fog-proxmox__GET_nodes_NODE_tasks_UPID_status__05") },
    ]);
    const started = Date.now();
    const result = await client.waitForTask(DUMP_UPID);
    // With fixed 1 s polling (community.proxmox) this would take over 2 s.
    assert.ok(Date.now() - started < 1500, "three polls take well under two seconds");
    assert.deepEqual(result, { upid: DUMP_UPID, node: "pve", type: "vzdump", id: "100", exitstatus: "OK", warnings: [] });
    assert.equal(server.seen.filter((r) => r.path.endsWith("/status")).length, 3);
    assert.equal(server.seen[0]?.path, `/nodes/pve/tasks/${DUMP_UPID}/status`);
  });

  it("fails at once when the task fails, with the last lines of its log (recorded vzcreate failure)", async () => {
    statuses.set(CREATE_UPID, [
      { body: fixture("fog-proxmox__GET_nodes_NODE_tasks_UPID_status__01") },
      { body: fixture("fog-proxmox__GET_nodes_NODE_tasks_UPID_status__02") },
    ]);
    logs.set(CREATE_UPID, { body: fixture("fog-proxmox__GET_nodes_NODE_tasks_UPID_log__02") });
    const err = await client.waitForTask(CREATE_UPID).catch((e: unknown) => e);
    assert.ok(err instanceof PveError);
    assert.equal(err.kind, "task");
    const exitstatus = "unable to create CT 100 - volume 'local:vztmpl/alpine-3.10-default_20190626_amd64.tar.xz' does not exist";
    assert.equal(err.task?.exitstatus, exitstatus);
    assert.equal(err.task?.logTail.length, 10);
    assert.equal(err.task?.logTail.at(-1), `TASK ERROR: ${exitstatus}`);
    assert.equal(err.task?.logTail[0], "\t32768, 98304, 163840, 229376");
    assert.equal(
      err.userMessage(),
      `task vzcreate 100 on node pve failed: ${exitstatus}\nlast lines of the task log:\n` +
        [
          "\t32768, 98304, 163840, 229376",
          "",
          "Allocating group tables: 0/8\b\b\b   \b\b\bdone                            ",
          "Writing inode tables: 0/8\b\b\b   \b\b\bdone                            ",
          "Creating journal (8192 blocks): done",
          "Multiple mount protection is enabled with update interval 5 seconds.",
          "Writing superblocks and filesystem accounting information: 0/8\b\b\b   \b\b\bdone",
          "",
          '  Logical volume "vm-100-disk-0" successfully removed',
          `TASK ERROR: ${exitstatus}`,
        ]
          .map((l) => `  ${l}`)
          .join("\n") +
        `\n(task ${CREATE_UPID})`,
    );
    assert.equal(server.seen.filter((r) => r.path.endsWith("/status")).length, 2, "no polling after the failure");
  });

  it("reads only the tail of a long log", async () => {
    statuses.set(START_UPID, [stopped(START_UPID, "VM 100 already running")]);
    const lines = Array.from({ length: 1200 }, (_, i) => ({ n: i + 1, t: `line ${i + 1}` }));
    server.seen.length = 0;
    logs.set(START_UPID, { body: { data: lines.slice(0, 500), total: 1200 } });
    const err = (await client.waitForTask(START_UPID).catch((e: unknown) => e)) as PveError;
    // The second log read asks for the last lines (the server here always answers the first page).
    const logReads = server.seen.filter((r) => r.path.endsWith("/log"));
    assert.equal(logReads.length, 2);
    assert.equal(logReads[1]?.query.toString(), "start=1190&limit=10");
    assert.equal(err.task?.exitstatus, "VM 100 already running");
  });

  it("treats 'WARNINGS: n' as success and returns the warnings", async () => {
    statuses.set(START_UPID, [running(START_UPID), stopped(START_UPID, "WARNINGS: 2")]);
    logs.set(
      START_UPID,
      ok(
        [
          { n: 1, t: "generating cloud-init ISO" },
          { n: 2, t: "WARN: no efidisk configured! Using temporary efivars disk." },
          { n: 3, t: "WARN: iothread is only valid with virtio disk or virtio-scsi-single controller, ignoring" },
          { n: 4, t: "TASK WARNINGS: 2" },
        ],
        { total: 4 },
      ),
    );
    const result = await client.waitForTask(START_UPID);
    assert.equal(result.exitstatus, "WARNINGS: 2");
    assert.deepEqual(result.warnings, [
      "WARN: no efidisk configured! Using temporary efivars disk.",
      "WARN: iothread is only valid with virtio disk or virtio-scsi-single controller, ignoring",
    ]);
    assert.equal(result.type, "qmstart");
  });

  it("stops waiting at the wall-clock timeout and says the task goes on", async () => {
    statuses.set(START_UPID, [running(START_UPID)]);
    const started = Date.now();
    const err = await client.waitForTask(START_UPID, { timeoutMs: 300 }).catch((e: unknown) => e);
    const elapsed = Date.now() - started;
    assert.ok(err instanceof PveError);
    assert.equal(err.kind, "timeout");
    assert.ok(elapsed >= 300 && elapsed < 900, `elapsed ${elapsed}`);
    assert.equal(
      err.message,
      `task qmstart 100 on node pve still running after 0 s; pvectl stopped waiting but the task goes on. Follow it in the PVE task list or with: pvesh get /nodes/pve/tasks/${START_UPID}/status`,
    );
  });

  it("can be cancelled with an AbortSignal", async () => {
    statuses.set(START_UPID, [running(START_UPID)]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("cancelled by user")), 100);
    await assert.rejects(client.waitForTask(START_UPID, { signal: controller.signal }), /cancelled by user/);
  });

  it("refuses a malformed UPID before asking the server", async () => {
    const err = await client.waitForTask("UPID:pve:123:qmstart").catch((e: unknown) => e);
    assert.ok(err instanceof PveError);
    assert.equal(err.kind, "config");
    assert.equal(
      err.userMessage(),
      "cannot wait for task: invalid UPID 'UPID:pve:123:qmstart': unable to parse worker upid. A UPID looks like UPID:pve:000ABCDE:0098F0A1:66AB12CD:qmstart:100:root@pam: (copy it whole, including the trailing colon).",
    );
    assert.equal(server.seen.length, 0);
  });

  it("passes on PVE's answer for an unknown task", async () => {
    const unknown = "UPID:pve:000ABCDE:0098F0A1:66AB12CD:qmstop:100:root@pam:";
    const err = (await client.waitForTask(unknown).catch((e: unknown) => e)) as PveError;
    assert.equal(err.kind, "http");
    assert.equal(
      err.message,
      `GET /nodes/pve/tasks/${encodeURIComponent(unknown)}/status failed: 400 Parameter verification failed.\n  upid: no such task`,
    );
  });
});
