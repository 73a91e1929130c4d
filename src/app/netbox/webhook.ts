// Checking a NetBox webhook before anything runs: the body must carry the signature NetBox
// makes with the shared secret (`X-Hook-Signature`: HMAC-SHA512 hex of the raw body), be
// NetBox's default JSON body, be recent, and not have been seen before (a replayed delivery).
// What passes names the virtual machine records it concerns; nothing else is trusted.
import { createHmac, timingSafeEqual } from "node:crypto";

export type WebhookVerdict =
  | { ok: true; event: string; model: string; requestId: string; recordIds: number[] }
  | { ok: false; status: 400 | 401 | 409; reason: string };

export interface VerifierOptions {
  /** How old (or how far ahead) a delivery may be; also how long its id is remembered. Default 5 minutes. */
  maxAgeMs?: number;
  now?: () => number;
}

const EVENTS = new Set(["created", "updated", "deleted"]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The virtual machine a changed object belongs to (its record is what sync converges). */
function recordOf(model: string, data: Record<string, unknown>): number | undefined {
  const idOf = (v: unknown) => (isObject(v) && typeof v.id === "number" ? v.id : undefined);
  if (model === "virtualmachine") return idOf(data);
  if (model === "vminterface" || model === "virtualdisk") return idOf(data.virtual_machine);
  if (model === "ipaddress" && isObject(data.assigned_object)) return idOf(data.assigned_object.virtual_machine);
  return undefined;
}

export class WebhookVerifier {
  readonly #secret: Buffer;
  readonly #maxAgeMs: number;
  readonly #now: () => number;
  /** Deliveries seen, by request id + object + event, with when they may be forgotten. */
  readonly #seen = new Map<string, number>();

  constructor(secret: string, options: VerifierOptions = {}) {
    if (secret === "") throw new Error("the webhook secret is empty");
    this.#secret = Buffer.from(secret, "utf8");
    this.#maxAgeMs = options.maxAgeMs ?? 5 * 60_000;
    this.#now = options.now ?? Date.now;
  }

  verify(signature: string | undefined, body: Buffer): WebhookVerdict {
    if (!signature) return { ok: false, status: 401, reason: "no X-Hook-Signature header (set the webhook's secret in NetBox)" };
    const expected = createHmac("sha512", this.#secret).update(body).digest();
    const given = /^[0-9a-f]{128}$/i.test(signature) ? Buffer.from(signature, "hex") : Buffer.alloc(0);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, status: 401, reason: "the X-Hook-Signature does not match the body (wrong secret, or the body was changed)" };
    let payload: unknown;
    try {
      payload = JSON.parse(body.toString("utf8"));
    } catch {
      return { ok: false, status: 400, reason: "the body is not JSON (the webhook must send NetBox's default body: leave body_template blank)" };
    }
    return this.#check(payload);
  }

  #check(payload: unknown): WebhookVerdict {
    if (!isObject(payload) || !isObject(payload.data)) return { ok: false, status: 400, reason: "the body is not NetBox's webhook body (no `data` object)" };
    const { event, model, timestamp, request_id: requestId, data } = payload;
    if (typeof event !== "string" || !EVENTS.has(event)) return { ok: false, status: 400, reason: `unknown event ${JSON.stringify(event)}` };
    if (typeof model !== "string" || typeof requestId !== "string" || typeof timestamp !== "string") return { ok: false, status: 400, reason: "the body lacks model, request_id or timestamp" };
    const at = Date.parse(timestamp);
    const now = this.#now();
    if (Number.isNaN(at) || Math.abs(now - at) > this.#maxAgeMs) return { ok: false, status: 409, reason: `the delivery's timestamp ${timestamp} is not within ${this.#maxAgeMs / 1000} s of now (a replay, or clocks apart)` };
    const key = `${requestId} ${model} ${String(data.id)} ${event}`;
    this.#forgetOld(now);
    if (this.#seen.has(key)) return { ok: false, status: 409, reason: `delivery ${requestId} for ${model} ${String(data.id)} was already received (a replay)` };
    this.#seen.set(key, now + this.#maxAgeMs);
    const record = event === "deleted" && model === "virtualmachine" ? undefined : recordOf(model, data);
    return { ok: true, event, model, requestId, recordIds: record === undefined ? [] : [record] };
  }

  #forgetOld(now: number): void {
    for (const [key, until] of this.#seen) if (until < now) this.#seen.delete(key);
  }
}
