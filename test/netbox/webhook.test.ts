// The webhook check on its own, with a clock the test moves: a delivery is accepted once within
// its window and refused ever after, whatever its timestamp; a timestamp ahead of this clock by
// more than the skew allowance is refused; an entry whose ids are not NetBox ids is refused with
// the field it got wrong, so it never reaches (and fails) a sync.
import assert from "node:assert/strict";
import { createHmac, randomUUID } from "node:crypto";
import { describe, test } from "node:test";
import fc from "fast-check";
import { WebhookVerifier } from "../../src/app/netbox/webhook.js";

const SECRET = "s3cret-for-tests";
const MAX_AGE = 5 * 60_000;
const SKEW = 30_000;

function delivery(fields: Record<string, unknown>): [string, Buffer] {
  const body = Buffer.from(
    JSON.stringify({
      event: "updated",
      model: "virtualmachine",
      username: "x",
      request_id: randomUUID(),
      data: { id: 7 },
      snapshots: {},
      ...fields,
    }),
  );
  return [createHmac("sha512", SECRET).update(body).digest("hex"), body];
}

function verifierAt(clock: { now: number }): WebhookVerifier {
  return new WebhookVerifier(SECRET, { maxAgeMs: MAX_AGE, maxSkewMs: SKEW, now: () => clock.now });
}

describe("netbox webhook check", () => {
  test("a delivery is accepted at most once, and never again later, whatever its timestamp", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -2 * MAX_AGE, max: 2 * MAX_AGE }),
        fc.array(fc.integer({ min: 1, max: 3 * MAX_AGE }), { minLength: 1, maxLength: 4 }),
        (offset, laters) => {
          const clock = { now: Date.parse("2026-01-01T00:00:00Z") };
          const verifier = verifierAt(clock);
          const [signature, body] = delivery({ timestamp: new Date(clock.now + offset).toISOString() });
          const first = verifier.verify(signature, body);
          assert.equal(first.ok, offset >= -MAX_AGE && offset <= SKEW, `offset ${offset}: ${JSON.stringify(first)}`);
          for (const later of laters) {
            clock.now += later;
            const again = verifier.verify(signature, body);
            if (first.ok) assert.equal(again.ok, false, `replayed ${later} ms later, timestamp ${offset} ms from the first arrival`);
          }
        },
      ),
    );
  });

  test("a timestamp ahead of this clock by more than the skew allowance is refused, saying so", () => {
    const clock = { now: Date.now() };
    const [signature, body] = delivery({ timestamp: new Date(clock.now + 4 * 60_000).toISOString() });
    const verdict = verifierAt(clock).verify(signature, body);
    assert.deepEqual(verdict.ok ? verdict : { status: verdict.status }, { status: 409 });
    assert.match(verdict.ok ? "" : verdict.reason, /240 s ahead of this clock \(at most 30 s allowed\)/);
  });

  test("an entry whose ids are not NetBox ids is refused with the field it got wrong", () => {
    const clock = { now: Date.now() };
    const verifier = verifierAt(clock);
    const timestamp = new Date(clock.now).toISOString();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ data: { id: 1.5 } }, /data\.id is 1\.5; a NetBox object id is a whole number from 1/],
      [{ data: { id: "7" } }, /data\.id is "7"/],
      [{ data: { id: -3 } }, /data\.id is -3/],
      [{ data: { id: 2 ** 60 } }, /data\.id is 1152921504606847000/],
      [{ data: {} }, /data\.id is missing/],
      [{ model: "vminterface", data: { id: 4, virtual_machine: { id: 0.5 } } }, /data\.virtual_machine\.id is 0\.5/],
      [{ model: "vminterface", data: { id: 4 } }, /data\.virtual_machine is missing/],
      [
        { model: "ipaddress", data: { id: 9, assigned_object: { id: 4, virtual_machine: { id: "x" } } } },
        /data\.assigned_object\.virtual_machine\.id is "x"/,
      ],
    ];
    for (const [fields, reason] of cases) {
      const [signature, body] = delivery({ timestamp, ...fields });
      const verdict = verifier.verify(signature, body);
      assert.equal(verdict.ok, false, JSON.stringify(fields));
      assert.equal(verdict.ok ? 0 : verdict.status, 400);
      assert.match(verdict.ok ? "" : verdict.reason, reason);
    }
    // What is well formed still passes: an address on a device's interface names no record.
    const [signature, body] = delivery({ timestamp, model: "ipaddress", data: { id: 9, assigned_object: { id: 4, device: { id: 2 } } } });
    assert.deepEqual(verifier.verify(signature, body), {
      ok: true,
      event: "updated",
      model: "ipaddress",
      requestId: JSON.parse(body.toString()).request_id,
      recordIds: [],
    });
  });
});
