// The NetBox client against the simulator: both token schemes, pagination, filters, PATCH
// with If-Match, and the user-facing messages for 400/403/404/409/412 and connection failures.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { authorizationHeader, encodeQuery, NetboxClient } from "../../src/netbox/client.js";
import { NetboxConnectionError, NetboxError } from "../../src/netbox/errors.js";
import { type NetboxSimulator, startNetboxSimulator } from "../../src/netbox/sim/index.js";

async function failure(promise: Promise<unknown>): Promise<NetboxError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof NetboxError) return err;
    throw err;
  }
  throw new Error("expected a NetboxError");
}

describe("NetboxClient", () => {
  let nb: NetboxSimulator;
  let client: NetboxClient;
  before(async () => {
    nb = await startNetboxSimulator({ seed: "demo", readOnlyTokens: ["ab".repeat(20)] });
    for (let i = 0; i < 120; i++)
      nb.admin.create("virtualization/virtual-machines", { name: `many-${String(i).padStart(3, "0")}`, cluster: 1, status: "planned" });
    client = new NetboxClient({ url: nb.url, token: nb.token, pageSize: 50 });
  });
  after(async () => {
    await client.close();
    await nb.close();
  });

  test("auth header: v1 keys as Token, v2 nbt_ tokens as Bearer; both are accepted", async () => {
    assert.equal(authorizationHeader("a".repeat(40)), `Token ${"a".repeat(40)}`);
    assert.equal(authorizationHeader("nbt_abc.def"), "Bearer nbt_abc.def");
    assert.equal(authorizationHeader("Bearer nbt_abc.def"), "Bearer nbt_abc.def");
    const v2 = new NetboxClient({ url: `${nb.url}/api/`, token: nb.v2Token });
    assert.equal((await v2.get("virtualization/virtual-machines", 1)).name, "web-01");
    await v2.close();
  });

  test("list follows every page and sends repeated filters", async () => {
    const planned = await client.list("virtualization/virtual-machines", { status: "planned" });
    assert.equal(planned.length, 123);
    assert.equal(new Set(planned.map((v) => v.id)).size, 123);
    const two = await client.list("virtualization/virtual-machines", { name: ["web-01", "db-01"] });
    assert.deepEqual(
      two.map((v) => v.name),
      ["db-01", "web-01"],
    );
    assert.equal(encodeQuery({ a: [1, 2], b: null, c: undefined }), "?a=1&a=2&b=null");
    const pages = nb.admin.requests.filter((r) => r.path.startsWith("/api/virtualization/virtual-machines/?limit=50"));
    assert.ok(pages.length >= 3);
  });

  test("version and MAC capability from /api/status/", async () => {
    assert.deepEqual(await client.version(), { major: 4, minor: 6, full: "4.6.8" });
    assert.equal(await client.atLeast(4, 2), true);
    assert.equal(await client.atLeast(4, 7), false);
  });

  test("400: field messages in the error, subject named, token never shown", async () => {
    const err = await failure(
      client.patch(
        "virtualization/virtual-machines",
        1,
        { status: "running" as "active", vcpus: 0 },
        { subject: "virtual machine web-01 (id 1)" },
      ),
    );
    assert.equal(err.status, 400);
    assert.deepEqual(err.fieldErrors, {
      status: ['"running" is not a valid choice.'],
      vcpus: ["Ensure this value is greater than or equal to 0.01."],
    });
    assert.equal(
      err.userMessage(),
      'NetBox PATCH /api/virtualization/virtual-machines/1/ for virtual machine web-01 (id 1) was rejected (400): status: "running" is not a valid choice.; vcpus: Ensure this value is greater than or equal to 0.01. Fix the value(s) named above in NetBox or in the pvectl NetBox config, then run again.',
    );
    assert.ok(!err.userMessage().includes(nb.token));
  });

  test("403 (read-only token), 404, 409, 412 each say what to do", async () => {
    const ro = new NetboxClient({ url: nb.url, token: "ab".repeat(20) });
    const denied = await failure(ro.patch("virtualization/virtual-machines", 1, { comments: "x" }));
    assert.equal(denied.status, 403);
    assert.match(
      denied.userMessage(),
      /refused \(403\): You do not have permission to perform this action\. Check that the NetBox token is valid, not expired, allowed from this address, write-enabled/,
    );
    await ro.close();

    const missing = await failure(client.get("virtualization/virtual-machines", 99999));
    assert.equal(
      missing.userMessage(),
      "NetBox GET /api/virtualization/virtual-machines/99999/: not found (404). The object may have been deleted or the NetBox URL may be wrong; reload the records and run again.",
    );

    const prefix = await client.create("ipam/prefixes", { prefix: "198.51.100.0/32" });
    await client.allocateIp(prefix.id);
    const full = await failure(client.allocateIp(prefix.id, {}, "prefix 198.51.100.0/32"));
    assert.equal(full.status, 409);
    assert.match(
      full.userMessage(),
      /conflicts with NetBox's current state \(409\): Insufficient resources are available to satisfy the request\./,
    );

    const { object, etag } = await client.getWithEtag("virtualization/virtual-machines", 2);
    assert.equal(object.name, "web-02");
    await client.patch("virtualization/virtual-machines", 2, { comments: "changed elsewhere" });
    const stale = await failure(
      client.patch("virtualization/virtual-machines", 2, { comments: "mine" }, { ...(etag ? { ifMatch: etag } : {}) }),
    );
    assert.equal(stale.status, 412);
    assert.match(stale.userMessage(), /412 Precondition Failed\): the object changed in NetBox after pvectl read it/);
  });

  test("an unreachable NetBox gives a connection error naming the URL, not the token", async () => {
    const dead = await startNetboxSimulator();
    const url = dead.url;
    await dead.close();
    const c = new NetboxClient({ url, token: "cd".repeat(20) });
    await assert.rejects(c.status(), (err: unknown) => {
      assert.ok(err instanceof NetboxConnectionError);
      assert.equal(
        err.userMessage(),
        `cannot reach NetBox at ${url} (ECONNREFUSED): check the NetBox URL (NETBOX_URL or \`url\` in the NetBox config), that NetBox is running, and the network path to it.`,
      );
      return true;
    });
  });
});
