// Typed calls: a path template known to the schema checks its parameters and types its
// result (the `@ts-expect-error` lines fail `npm run typecheck` if the typing stops biting);
// concrete paths and unknown templates stay untyped.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { PveClient } from "../../src/api/index.js";
import { ok, startServer, type TestServer } from "../support/api/server.js";

describe("typed calls", () => {
  let server: TestServer;
  let client: PveClient;

  before(async () => {
    server = await startServer((req) =>
      req.path === "/version" ? ok({ release: "9.1", version: "9.1.1", repoid: "abc" }) : ok({ cores: 2, digest: "d1" }),
    );
    client = new PveClient({
      host: `http://127.0.0.1:${server.port}`,
      tokenId: "automation@pve!ci",
      tokenSecret: "0b9d7b8e-aaaa-bbbb-cccc-123456789abc",
    });
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  it("types params and result of a schema template, filling the path from params", async () => {
    const config = await client.get("/nodes/{node}/qemu/{vmid}/config", { node: "pve", vmid: 100 });
    const cores: number | undefined = config.cores;
    assert.equal(cores, 2);
    assert.equal(server.seen.at(-1)?.path, "/nodes/pve/qemu/100/config");

    const version = await client.get("/version");
    const release: string = version.release;
    assert.equal(release, "9.1");
  });

  it("rejects wrong parameters at compile time", async () => {
    const wrong = async () => {
      // @ts-expect-error vmid is required
      await client.get("/nodes/{node}/qemu/{vmid}/config", { node: "pve" });
      // @ts-expect-error 'cpus' is not a parameter of this endpoint
      await client.post("/nodes/{node}/qemu/{vmid}/config", { node: "pve", vmid: 100, cpus: 2 });
      // @ts-expect-error this template has no GET
      await client.get("/nodes/{node}/qemu/{vmid}/status/start", { node: "pve", vmid: 100 });
      // @ts-expect-error the result is typed: no field 'nope' on /version
      (await client.get("/version")).nope;
    };
    assert.equal(typeof wrong, "function"); // compiled, never run
  });

  it("leaves concrete paths untyped", async () => {
    const data: unknown = await client.get("/nodes/pve/qemu/100/config");
    assert.deepEqual(data, { cores: 2, digest: "d1" });
  });
});
