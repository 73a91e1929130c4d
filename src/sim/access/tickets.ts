// Login tickets and CSRF prevention tokens in PVE's formats (pve-common Ticket.pm):
//   ticket: PVE:<userid>:<8 HEX unix time>::<base64 signature>
//   CSRF:   <8 HEX unix time>:<base64 HMAC-SHA256 over "<time>:<userid>">
// PVE signs tickets with the cluster's RSA key; the simulator signs with an HMAC key of its
// own, which clients cannot tell apart (they treat tickets as opaque).
import { createHmac, timingSafeEqual } from "node:crypto";

/** Ticket lifetime (AccessControl.pm $ticket_lifetime). */
export const TICKET_LIFETIME_SECONDS = 7200;
/** Tickets from up to 5 minutes in the future are accepted (clock skew between nodes). */
const MAX_CLOCK_SKEW_SECONDS = 300;

function hexTime(seconds: number): string {
  return Math.floor(seconds).toString(16).toUpperCase().padStart(8, "0");
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export class TicketSigner {
  constructor(private readonly key: string) {}

  private sign(text: string): string {
    return createHmac("sha256", this.key).update(text).digest("base64");
  }

  createTicket(userid: string, now: number): string {
    const plain = `PVE:${userid}:${hexTime(now)}`;
    return `${plain}::${this.sign(plain)}`;
  }

  /** The user id of a valid, unexpired ticket; undefined otherwise. */
  verifyTicket(ticket: string, now: number): string | undefined {
    const m = /^(PVE:([^:\s]+):([0-9A-F]{8}))::(\S+)$/.exec(ticket.trim());
    if (!m) return undefined;
    const plain = m[1] as string;
    const userid = m[2] as string;
    const time = Number.parseInt(m[3] as string, 16);
    if (!sameText(this.sign(plain), m[4] as string)) return undefined;
    const age = now - time;
    if (age < -MAX_CLOCK_SKEW_SECONDS || age > TICKET_LIFETIME_SECONDS) return undefined;
    return userid;
  }

  createCsrfToken(userid: string, now: number): string {
    const time = hexTime(now);
    const mac = createHmac("sha256", this.key).update(`${time}:${userid}`).digest("base64").replace(/=+$/, "");
    return `${time}:${mac}`;
  }

  verifyCsrfToken(token: string | undefined, userid: string, now: number): boolean {
    if (!token) return false;
    const m = /^([0-9A-F]{8}):(\S+)$/.exec(token.trim());
    if (!m) return false;
    const time = m[1] as string;
    const expected = createHmac("sha256", this.key).update(`${time}:${userid}`).digest("base64").replace(/=+$/, "");
    if (!sameText(expected, m[2] as string)) return false;
    const age = now - Number.parseInt(time, 16);
    return age >= -MAX_CLOCK_SKEW_SECONDS && age <= TICKET_LIFETIME_SECONDS;
  }
}
