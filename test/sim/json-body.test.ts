// Response bodies are written in slices as Buffers; the bytes must be JSON.stringify's.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RawJson } from "../../src/sim/contract.js";
import { jsonBody } from "../../src/sim/http/json-body.js";

const text = (body: Record<string, unknown>) => Buffer.concat(jsonBody(body)).toString("utf8");

describe("jsonBody", () => {
  it("writes exactly what JSON.stringify writes, for short and long arrays and other envelopes", () => {
    const rows = Array.from({ length: 1234 }, (_, i) => ({ id: `qemu/${i}`, name: `vm-ü-${i}`, cpu: i / 7, tags: i % 3 ? "a;b" : undefined }));
    const bodies: Array<Record<string, unknown>> = [
      { data: rows },
      { data: rows, total: 1234 },
      { data: rows.slice(0, 3) },
      { data: [] },
      { data: [], total: 0 },
      { data: [undefined, null, () => 1, 1.5, "x"] },
      { data: Array.from({ length: 401 }, (_, i) => (i % 2 ? undefined : i)) },
      { data: { version: "9.1.2" } },
      { data: null, message: "boom\n", errors: { vmid: "bad" } },
    ];
    for (const body of bodies) assert.equal(text(body), JSON.stringify(body));
  });

  it("slices a long listing into several chunks", () => {
    assert.ok(jsonBody({ data: Array.from({ length: 1000 }, (_, i) => ({ i })) }).length > 2);
  });

  it("writes RawJson elements as the text they carry, in slices and in short arrays", () => {
    const raw = (i: number) => new RawJson(JSON.stringify({ id: `qemu/${i}`, vmid: i }));
    for (const length of [2, 450]) {
      const data = [...Array.from({ length }, (_, i) => raw(i)), { id: "node/pve1" }];
      const expected = JSON.stringify({ data: [...Array.from({ length }, (_, i) => ({ id: `qemu/${i}`, vmid: i })), { id: "node/pve1" }] });
      assert.equal(text({ data }), expected);
    }
  });

  it("still writes a RawJson right where it is nested, through toJSON", () => {
    assert.equal(text({ data: { members: [new RawJson('{"a":1}')] } }), '{"data":{"members":[{"a":1}]}}');
  });
});
