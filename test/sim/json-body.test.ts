// Response bodies are written in slices as Buffers; the bytes must be JSON.stringify's.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { JsonList, type JsonRun } from "../../src/sim/contract.js";
import { jsonBody } from "../../src/sim/http/json-body.js";

const text = (body: Record<string, unknown>) => Buffer.concat(jsonBody(body)).toString("utf8");

describe("jsonBody", () => {
  it("writes exactly what JSON.stringify writes, for short and long arrays and other envelopes", () => {
    const rows = Array.from({ length: 1234 }, (_, i) => ({
      id: `qemu/${i}`,
      name: `vm-ü-${i}`,
      cpu: i / 7,
      tags: i % 3 ? "a;b" : undefined,
    }));
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

  it("writes a JsonList's parts in order, producing its runs a slice at a time", () => {
    const entry = (i: number) => ({ id: `qemu/${i}`, vmid: i });
    const asked: Array<[number, number]> = [];
    const run = (length: number): JsonRun => ({
      length,
      text: (start, end) => {
        asked.push([start, end]);
        return Array.from({ length: end - start }, (_, k) => JSON.stringify(entry(start + k))).join(",");
      },
    });
    for (const length of [0, 2, 450]) {
      asked.length = 0;
      const nodes = [{ id: "node/pve1" }, { id: "node/pve2" }];
      const expected = JSON.stringify({ data: [...Array.from({ length }, (_, i) => entry(i)), ...nodes] });
      assert.equal(text({ data: new JsonList([run(length), nodes]) }), expected, `${length} entries`);
      assert.ok(
        asked.every(([start, end]) => end - start <= 200),
        "no slice over 200 entries",
      );
    }
    assert.equal(text({ data: new JsonList([[], run(0)]), total: 0 }), '{"data":[],"total":0}');
  });

  it("still writes a JsonList nested deeper, through toJSON", () => {
    const run: JsonRun = { length: 1, text: () => '{"a":1}' };
    assert.equal(text({ data: { members: new JsonList([run, [{ b: 2 }]]) } }), '{"data":{"members":[{"a":1},{"b":2}]}}');
  });
});
