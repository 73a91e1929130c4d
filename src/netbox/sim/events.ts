// Event rules at work: every change a request made (created, updated, deleted objects) is
// matched, once the request succeeded, against the enabled event rules for its object type
// and event whose conditions hold (conditions.ts), and each matching webhook gets NetBox's default JSON body
// ({event, timestamp, model, username, request_id, data, snapshots}), signed with the
// webhook's secret as `X-Hook-Signature` (HMAC-SHA512 hex of the body), as NetBox's RQ worker
// sends it: after the response, asynchronously, once (no retries).
import { createHmac, randomUUID } from "node:crypto";
import { compileConditions, conditionsHold } from "./conditions.js";
import type { ResourceDef, SimContext } from "./resource.js";
import type { Row } from "./store.js";

export type ChangeKind = "created" | "updated" | "deleted";

export interface Change {
  def: ResourceDef;
  kind: ChangeKind;
  /** The object after the change (absent for deletes). */
  after?: Record<string, unknown>;
  before?: Record<string, unknown>;
}

export interface Delivery {
  url: string;
  event: ChangeKind;
  model: string;
  id: number;
  status?: number;
  error?: string;
}

/** `Name: Value` lines of a webhook's additional_headers. */
function headerLines(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const at = line.indexOf(":");
    if (at > 0) out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}

export class EventBus {
  readonly deliveries: Delivery[] = [];
  #pending: Change[] = [];
  #inFlight = new Set<Promise<void>>();

  constructor(private readonly ctx: SimContext) {}

  /** A change of the request in progress (sent only if the request succeeds). */
  record(def: ResourceDef, kind: ChangeKind, row: Row | undefined, before: Row | undefined): void {
    if (def.path === "extras/webhooks" || def.path === "extras/event-rules") return;
    // Serialising costs; without a rule nothing is sent anyway.
    if (this.ctx.store.rows("extras/event-rules").length === 0) return;
    this.#pending.push({
      def,
      kind,
      ...(row ? { after: this.ctx.full(def, row) } : {}),
      ...(before ? { before: this.ctx.full(def, before) } : {}),
    });
  }

  discard(): void {
    this.#pending = [];
  }

  /** Sends the recorded changes to the webhooks of matching rules, after the response. */
  flush(username = "admin"): void {
    const changes = this.#pending;
    this.#pending = [];
    const requestId = randomUUID();
    for (const change of changes) for (const hook of this.#hooksFor(change)) this.#send(hook, change, username, requestId);
  }

  /** Resolves once every delivery started so far has ended (tests). */
  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  #hooksFor(change: Change): Row[] {
    const event = `object_${change.kind}`;
    return this.ctx.store
      .rows("extras/event-rules")
      .filter((r) => r.enabled !== false && r.action_type === "webhook")
      .filter((r) => Array.isArray(r.object_types) && r.object_types.includes(change.def.objectType))
      .filter((r) => Array.isArray(r.event_types) && r.event_types.includes(event))
      .filter((r) => this.#conditionsHold(r, change))
      .map((r) => this.ctx.store.get("extras/webhooks", Number(r.action_object_id)))
      .filter((w): w is Row => w !== undefined);
  }

  /** No conditions always hold; otherwise they are evaluated on the object (as deleted, for a delete). */
  #conditionsHold(rule: Row, change: Change): boolean {
    if (rule.conditions === null || rule.conditions === undefined) return true;
    const compiled = compileConditions(rule.conditions);
    return compiled.ok && conditionsHold(compiled.conditions, change.after ?? change.before ?? {});
  }

  #send(hook: Row, change: Change, username: string, requestId: string): void {
    const data = change.after ?? change.before ?? {};
    const body = JSON.stringify({
      event: change.kind,
      timestamp: new Date().toISOString(),
      model: change.def.objectType.split(".")[1],
      username,
      request_id: requestId,
      data,
      snapshots: { prechange: change.before ?? null, postchange: change.after ?? null },
    });
    const headers: Record<string, string> = {
      "Content-Type": String(hook.http_content_type || "application/json"),
      ...headerLines(String(hook.additional_headers ?? "")),
    };
    const secret = String(hook.secret ?? "");
    if (secret !== "") headers["X-Hook-Signature"] = createHmac("sha512", secret).update(body).digest("hex");
    const delivery: Delivery = { url: String(hook.payload_url), event: change.kind, model: change.def.objectType, id: Number(data.id) };
    this.deliveries.push(delivery);
    const sent = fetch(delivery.url, { method: String(hook.http_method || "POST"), headers, body, signal: AbortSignal.timeout(30_000) })
      .then(async (res) => {
        delivery.status = res.status;
        await res.arrayBuffer();
      })
      .catch((err: unknown) => {
        delivery.error = err instanceof Error ? err.message : String(err);
      })
      .finally(() => this.#inFlight.delete(sent));
    this.#inFlight.add(sent);
  }
}
