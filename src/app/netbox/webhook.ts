// Checking a NetBox webhook before anything runs: the body must carry the signature NetBox
// makes with the shared secret (`X-Hook-Signature`: HMAC-SHA512 hex of the raw body), be
// NetBox's default JSON body, be recent, and not have been seen before (a replayed delivery).
// What passes names the virtual machine records it concerns, by ids checked to be NetBox ids;
// nothing else is trusted. A timestamp may be only a little ahead of this clock (skew).
import { createHmac, timingSafeEqual } from "node:crypto";

export type WebhookVerdict =
  | { ok: true; event: string; model: string; requestId: string; recordIds: number[] }
  | { ok: false; status: 400 | 401 | 409; reason: string };

export interface VerifierOptions {
  /** How old a delivery may be. Default 5 minutes. */
  maxAgeMs?: number;
  /** How far ahead of this clock a delivery's timestamp may be (NetBox's clock a little fast). Default 30 s. */
  maxSkewMs?: number;
  now?: () => number;
}

const EVENTS = new Set(["created", "updated", "deleted"]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A field of the body that is not what NetBox sends: the delivery is refused with it. */
class Malformed extends Error {}

/** `parent.key.id` as a NetBox object id (a positive whole number), or Malformed naming the field. */
function idAt(parent: Record<string, unknown>, path: string, key?: string): number {
  const holder = key === undefined ? parent : parent[key];
  const where = key === undefined ? path : `${path}.${key}`;
  if (!isObject(holder)) throw new Malformed(`${where} is missing`);
  const id = holder.id;
  if (id === undefined) throw new Malformed(`${where}.id is missing`);
  if (typeof id !== "number" || !Number.isSafeInteger(id) || id < 1)
    throw new Malformed(`${where}.id is ${JSON.stringify(id)}; a NetBox object id is a whole number from 1`);
  return id;
}

/**
 * The virtual machine a changed object belongs to (its record is what sync converges). Ids
 * are checked here, so a bad one refuses its own delivery instead of failing the sync of every
 * record queued with it.
 */
function recordOf(model: string, event: string, data: Record<string, unknown>): number | undefined {
  const own = idAt(data, "data");
  if (model === "virtualmachine") return event === "deleted" ? undefined : own;
  if (model === "vminterface" || model === "virtualdisk") return idAt(data, "data", "virtual_machine");
  // An address on a device's interface, or on none, names no record.
  if (model === "ipaddress" && isObject(data.assigned_object) && data.assigned_object.virtual_machine !== undefined)
    return idAt(data.assigned_object, "data.assigned_object", "virtual_machine");
  return undefined;
}

export class WebhookVerifier {
  readonly #secret: Buffer;
  readonly #maxAgeMs: number;
  readonly #maxSkewMs: number;
  readonly #now: () => number;
  /** Deliveries seen, by request id + object + event, with when they may be forgotten. */
  readonly #seen = new Map<string, number>();

  constructor(secret: string, options: VerifierOptions = {}) {
    if (secret === "") throw new Error("the webhook secret is empty");
    this.#secret = Buffer.from(secret, "utf8");
    this.#maxAgeMs = options.maxAgeMs ?? 5 * 60_000;
    this.#maxSkewMs = options.maxSkewMs ?? 30_000;
    this.#now = options.now ?? Date.now;
  }

  verify(signature: string | undefined, body: Buffer): WebhookVerdict {
    if (!signature) return { ok: false, status: 401, reason: "no X-Hook-Signature header (set the webhook's secret in NetBox)" };
    const expected = createHmac("sha512", this.#secret).update(body).digest();
    const given = /^[0-9a-f]{128}$/i.test(signature) ? Buffer.from(signature, "hex") : Buffer.alloc(0);
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      return { ok: false, status: 401, reason: "the X-Hook-Signature does not match the body (wrong secret, or the body was changed)" };
    let payload: unknown;
    try {
      payload = JSON.parse(body.toString("utf8"));
    } catch {
      return {
        ok: false,
        status: 400,
        reason: "the body is not JSON (the webhook must send NetBox's default body: leave body_template blank)",
      };
    }
    return this.#check(payload);
  }

  #check(payload: unknown): WebhookVerdict {
    if (!isObject(payload) || !isObject(payload.data))
      return { ok: false, status: 400, reason: "the body is not NetBox's webhook body (no `data` object)" };
    const { event, model, timestamp, request_id: requestId, data } = payload;
    if (typeof event !== "string" || !EVENTS.has(event))
      return { ok: false, status: 400, reason: `unknown event ${JSON.stringify(event)}` };
    if (typeof model !== "string" || typeof requestId !== "string" || typeof timestamp !== "string")
      return { ok: false, status: 400, reason: "the body lacks model, request_id or timestamp" };
    const at = Date.parse(timestamp);
    if (Number.isNaN(at)) return { ok: false, status: 400, reason: `the delivery's timestamp ${JSON.stringify(timestamp)} is not a date` };
    let record: number | undefined;
    try {
      record = recordOf(model, event, data);
    } catch (err) {
      if (!(err instanceof Malformed)) throw err;
      return { ok: false, status: 400, reason: `the ${model} ${event} entry is not what NetBox sends: ${err.message}` };
    }
    const now = this.#now();
    const early = this.#refuseTime(timestamp, at, now);
    if (early) return early;
    const key = `${requestId} ${model} ${String(data.id)} ${event}`;
    this.#forgetOld(now);
    if (this.#seen.has(key))
      return { ok: false, status: 409, reason: `delivery ${requestId} for ${model} ${String(data.id)} was already received (a replay)` };
    // Remembered as long as its timestamp could still pass the age check: a replay is refused
    // by the age check or by this, whenever it comes.
    this.#seen.set(key, at + this.#maxAgeMs);
    return { ok: true, event, model, requestId, recordIds: record === undefined ? [] : [record] };
  }

  /**
   * Too old, or ahead of this clock by more than the skew allowance. The future is bounded
   * tightly: a delivery dated ahead would otherwise stay acceptable that much longer.
   */
  #refuseTime(timestamp: string, at: number, now: number): WebhookVerdict | undefined {
    if (at - now > this.#maxSkewMs) {
      const ahead = Math.round((at - now) / 1000);
      return {
        ok: false,
        status: 409,
        reason: `the delivery's timestamp ${timestamp} is ${ahead} s ahead of this clock (at most ${this.#maxSkewMs / 1000} s allowed): NetBox's and this host's clocks are apart, or the delivery was forged ahead`,
      };
    }
    if (now - at > this.#maxAgeMs)
      return {
        ok: false,
        status: 409,
        reason: `the delivery's timestamp ${timestamp} is more than ${this.#maxAgeMs / 1000} s old (a replay, or clocks apart)`,
      };
    return undefined;
  }

  #forgetOld(now: number): void {
    for (const [key, until] of this.#seen) if (until < now) this.#seen.delete(key);
  }
}
