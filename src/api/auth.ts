// Authentication: an API token is one header; a password buys a ticket (cookie + CSRF token
// on writes) that PVE honours for two hours, so it is renewed well before that, using the
// ticket itself (which also spares a TFA user a second code).
import { PveError } from "./errors.js";
import { type CallContext, httpError } from "./messages.js";
import type { Credentials } from "./options.js";
import type { SecretScrubber } from "./secrets.js";
import type { HttpMethod, RawResponse } from "./transport.js";

/** PVE's ticket lifetime ($ticket_lifetime in AccessControl.pm). */
export const TICKET_LIFETIME_MS = 2 * 60 * 60 * 1000;
/** Renew once a ticket is this old; leaves an hour for clock skew and long waits. */
export const TICKET_RENEW_AFTER_MS = 60 * 60 * 1000;
/** Past this age a renewal may race the expiry: log in afresh. */
const TICKET_UNSAFE_AFTER_MS = TICKET_LIFETIME_MS - 5 * 60 * 1000;

export interface Authenticator {
  readonly kind: "token" | "ticket";
  headers(method: HttpMethod): Promise<Record<string, string>>;
  /** Called on a 401: forget the ticket; true when logging in again and repeating is worthwhile. */
  invalidate(): boolean;
}

export class TokenAuth implements Authenticator {
  readonly kind = "token";
  readonly #header: Record<string, string>;

  constructor(identity: string, secret: string, scrubber: SecretScrubber) {
    scrubber.add(secret);
    this.#header = { authorization: `PVEAPIToken=${identity}=${secret}` };
  }

  async headers(): Promise<Record<string, string>> {
    return this.#header;
  }

  invalidate(): boolean {
    return false;
  }
}

interface Ticket {
  ticket: string;
  csrf: string;
  obtainedAt: number;
}

export interface TicketDeps {
  /** POST /access/ticket without authentication; throws a PveError when no response came. */
  postTicket(params: Record<string, string>): Promise<RawResponse>;
  context(method: string, path: string): CallContext;
  scrubber: SecretScrubber;
  clock: () => number;
}

const TICKET_PATH = "/access/ticket";

export class TicketAuth implements Authenticator {
  readonly kind = "ticket";
  readonly #credentials: Extract<Credentials, { kind: "ticket" }>;
  readonly #deps: TicketDeps;
  #current: Ticket | undefined;
  #pending: Promise<Ticket> | undefined;

  constructor(credentials: Extract<Credentials, { kind: "ticket" }>, deps: TicketDeps) {
    this.#credentials = credentials;
    this.#deps = deps;
    deps.scrubber.add(credentials.password);
    deps.scrubber.add(credentials.otp);
  }

  async headers(method: HttpMethod): Promise<Record<string, string>> {
    const ticket = await this.#valid();
    const headers: Record<string, string> = { cookie: `PVEAuthCookie=${encodeURIComponent(ticket.ticket)}` };
    if (method !== "GET") headers.csrfpreventiontoken = ticket.csrf;
    return headers;
  }

  invalidate(): boolean {
    const had = this.#current !== undefined;
    this.#current = undefined;
    return had;
  }

  async #valid(): Promise<Ticket> {
    const age = this.#current ? this.#deps.clock() - this.#current.obtainedAt : Number.POSITIVE_INFINITY;
    if (this.#current && age < TICKET_RENEW_AFTER_MS) return this.#current;
    // One login at a time; parallel requests wait for the same one.
    if (!this.#pending) {
      const renewable = this.#current && age < TICKET_UNSAFE_AFTER_MS ? this.#current : undefined;
      this.#pending = this.#obtain(renewable).finally(() => {
        this.#pending = undefined;
      });
    }
    return this.#pending;
  }

  async #obtain(renewable: Ticket | undefined): Promise<Ticket> {
    if (renewable) {
      try {
        this.#current = await this.#exchange({ username: this.#credentials.user, password: renewable.ticket });
        return this.#current;
      } catch (err) {
        // A renewal refused (ticket revoked, keys rotated) falls back to a full login.
        if (!(err instanceof PveError) || err.kind !== "auth") throw err;
      }
    }
    this.#current = await this.#exchange({ username: this.#credentials.user, password: this.#credentials.password }, true);
    return this.#current;
  }

  async #exchange(params: Record<string, string>, fresh = false): Promise<Ticket> {
    const data = await this.#call(params, "login");
    if (data.NeedTFA !== undefined && data.NeedTFA !== 0 && data.NeedTFA !== "0") {
      if (!fresh) return this.#exchange({ username: this.#credentials.user, password: this.#credentials.password }, true);
      return this.#secondFactor(String(data.ticket ?? ""));
    }
    return this.#ticketFrom(data);
  }

  async #secondFactor(challenge: string): Promise<Ticket> {
    const user = this.#credentials.user;
    this.#deps.scrubber.add(challenge);
    if (!this.#credentials.otp) {
      const ctx = this.#deps.context("POST", TICKET_PATH);
      throw new PveError({
        kind: "auth",
        method: "POST",
        path: TICKET_PATH,
        code: "NEED_TFA",
        message: ctx.scrub(
          `login as ${user} at ${ctx.origin} needs a second factor (two-factor authentication is enabled for this user or realm). ` +
            "For automation use an API token (PROXMOX_TOKEN_ID and PROXMOX_TOKEN_SECRET), which needs no second factor; or pass a current TOTP code with PROXMOX_OTP.",
        ),
      });
    }
    const data = await this.#call(
      { username: user, "tfa-challenge": challenge, password: `totp:${this.#credentials.otp}` },
      "second factor",
    );
    return this.#ticketFrom(data);
  }

  async #call(params: Record<string, string>, step: "login" | "second factor"): Promise<Record<string, unknown>> {
    const res = await this.#deps.postTicket(params);
    const ctx = this.#deps.context("POST", TICKET_PATH);
    if (res.status === 401) {
      const detail = (res.envelope?.message ?? res.statusText).trim() || "authentication failure";
      const next =
        step === "login"
          ? "Check PROXMOX_USER (with its realm, e.g. root@pam or automation@pve) and PROXMOX_PASSWORD, and that the user is enabled."
          : "Check PROXMOX_OTP: TOTP codes change every 30 seconds and each is accepted once.";
      throw new PveError({
        kind: "auth",
        method: "POST",
        path: TICKET_PATH,
        status: 401,
        pveMessage: ctx.scrub(detail),
        message: ctx.scrub(`${step} as ${this.#credentials.user} at ${ctx.origin} failed: ${detail}. ${next}`),
      });
    }
    if (res.status < 200 || res.status >= 300) throw httpError(res, ctx);
    const data = res.envelope?.data;
    if (typeof data !== "object" || data === null) {
      throw new PveError({
        kind: "auth",
        method: "POST",
        path: TICKET_PATH,
        status: res.status,
        message: `login as ${this.#credentials.user} at ${ctx.origin} returned no ticket; is this a Proxmox VE API?`,
      });
    }
    return data as Record<string, unknown>;
  }

  #ticketFrom(data: Record<string, unknown>): Ticket {
    const ticket = typeof data.ticket === "string" ? data.ticket : "";
    const csrf = typeof data.CSRFPreventionToken === "string" ? data.CSRFPreventionToken : "";
    this.#deps.scrubber.add(ticket);
    this.#deps.scrubber.add(csrf);
    if (!ticket || !csrf) {
      const ctx = this.#deps.context("POST", TICKET_PATH);
      throw new PveError({
        kind: "auth",
        method: "POST",
        path: TICKET_PATH,
        message: `login as ${this.#credentials.user} at ${ctx.origin} returned no ticket or CSRF token; is this a Proxmox VE API?`,
      });
    }
    return { ticket, csrf, obtainedAt: this.#deps.clock() };
  }
}
