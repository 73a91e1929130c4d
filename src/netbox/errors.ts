// Errors from talking to NetBox, each with a message a person can act on: what failed, on
// which object, why (NetBox's own words, per field for 400s), and what to do next.
// The token never appears in any of them.
import { PvectlError } from "../util/errors.js";

export type NetboxFieldErrors = Record<string, string[]>;

export interface NetboxErrorInit {
  status: number;
  method: string;
  /** Path with query, relative to the NetBox URL, e.g. /api/virtualization/virtual-machines/3/ */
  path: string;
  body: unknown;
  /** What the request was about, e.g. "virtual machine web-01 (id 3)". */
  subject?: string;
}

function flattenFieldErrors(body: unknown, prefix = ""): NetboxFieldErrors {
  const out: NetboxFieldErrors = {};
  if (Array.isArray(body)) {
    // Bulk requests answer with one error object per item.
    body.forEach((item, i) => {
      Object.assign(out, flattenFieldErrors(item, `${prefix}[${i}].`));
    });
    return out;
  }
  if (typeof body !== "object" || body === null) return out;
  for (const [field, value] of Object.entries(body)) {
    if (Array.isArray(value) && value.every((v) => typeof v === "string")) out[prefix + field] = value as string[];
    else if (typeof value === "string") out[prefix + field] = [value];
    else if (typeof value === "object" && value !== null) Object.assign(out, flattenFieldErrors(value, `${prefix}${field}.`));
  }
  return out;
}

function detailOf(body: unknown): string | undefined {
  if (typeof body === "object" && body !== null && "detail" in body) {
    const d = (body as { detail: unknown }).detail;
    return typeof d === "string" ? d : Array.isArray(d) ? d.join(" ") : undefined;
  }
  return typeof body === "string" && body.length > 0 && body.length < 300 ? body : undefined;
}

export class NetboxError extends PvectlError {
  readonly kind = "netbox";
  readonly status: number;
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
  readonly subject: string | undefined;
  /** 400 validation messages by field (`__all__` for object-level ones). */
  readonly fieldErrors: NetboxFieldErrors;
  /** NetBox's `detail` text (403, 404, 409, 412 ...). */
  readonly detail: string | undefined;
  /** What to do next (also the end of userMessage()); none for a status without advice. */
  declare readonly hint?: string;

  constructor(init: NetboxErrorInit) {
    super(`NetBox ${init.method} ${init.path} failed with HTTP ${init.status}`);
    this.name = "NetboxError";
    this.status = init.status;
    this.method = init.method;
    this.path = init.path;
    this.body = init.body;
    this.subject = init.subject;
    this.detail = detailOf(init.body);
    this.fieldErrors = init.status === 400 ? flattenFieldErrors(init.body) : {};
    const advice = this.#words()[1];
    if (advice) this.hint = advice;
    this.message = this.userMessage();
  }

  /** The field messages as one line: `cluster: Related object not found ...; vcpus: Ensure ...` */
  fieldSummary(): string {
    return Object.entries(this.fieldErrors)
      .map(([field, msgs]) => `${field === "__all__" || field === "non_field_errors" ? "" : `${field}: `}${msgs.join(" ")}`)
      .join("; ");
  }

  override userMessage(): string {
    const [problem, advice] = this.#words();
    return advice ? `${problem} ${advice}` : problem;
  }

  /** What failed, in NetBox's words where it has some, and what to do about it. */
  #words(): [string, string?] {
    // NetBox's own sentences end with a period; ours follow them after one.
    const detail = this.detail?.replace(/\.$/, "");
    const on = this.subject ? ` for ${this.subject}` : "";
    const what = `NetBox ${this.method} ${this.path}${on}`;
    switch (this.status) {
      case 400: {
        const fields = (this.fieldSummary() || detail || "invalid request").replace(/\.$/, "");
        return [
          `${what} was rejected (400): ${fields}.`,
          "Fix the value(s) named above in NetBox or in the pvectl NetBox config, then run again.",
        ];
      }
      case 401:
      case 403:
        return [
          `${what} was refused (${this.status}): ${detail ?? "permission denied"}.`,
          "Check that the NetBox token is valid, not expired, allowed from this address, write-enabled for changes, and that its user may change this object type.",
        ];
      case 404:
        return [
          `${what}: not found (404).`,
          "The object may have been deleted or the NetBox URL may be wrong; reload the records and run again.",
        ];
      case 409:
        return [
          `${what} conflicts with NetBox's current state (409): ${detail ?? "conflict"}.`,
          "Resolve the conflict named above (free space, dependent objects) and run again.",
        ];
      case 412:
        return [
          `${what} was not applied (412 Precondition Failed): the object changed in NetBox after pvectl read it.`,
          "Run again so pvectl works from the current record.",
        ];
      default:
        if (this.status >= 500)
          return [
            `${what} failed with a NetBox server error (${this.status})${detail ? `: ${detail}` : ""}.`,
            "Check NetBox's logs and retry.",
          ];
        return [`${what} failed (HTTP ${this.status})${detail ? `: ${detail}` : ""}.`];
    }
  }
}

/**
 * NetBox could not be reached at all, or did not answer: `code` is Node's (ECONNREFUSED,
 * ENOTFOUND ...), the certificate check's (DEPTH_ZERO_SELF_SIGNED_CERT ...), or util/http's
 * own (CONNECT_TIMEOUT, TIMEOUT, POOL_CLOSED).
 */
export class NetboxConnectionError extends PvectlError {
  readonly kind = "netbox-connection";
  override readonly hint: string;

  constructor(
    readonly url: string,
    readonly code: string,
  ) {
    super(`cannot reach NetBox at ${url} (${code})`);
    this.name = "NetboxConnectionError";
    this.hint =
      code === "ERR_TLS_CERT_ALTNAME_INVALID"
        ? "the server's TLS certificate is not valid for this host name: use the name the certificate was issued for in the NetBox URL."
        : /^(ERR_SSL_|EPROTO$)/.test(code)
          ? "the TLS handshake failed: check that the NetBox URL's scheme and port are NetBox's (https:// to an HTTPS port, http:// to a plain one)."
          : /CERT|SSL|TLS|SELF_SIGNED|VERIFY|ISSUER/i.test(code)
            ? "the server's TLS certificate is not trusted: give its CA as a PEM file with `netbox.caFile` in the configuration."
            : code === "TIMEOUT"
              ? "NetBox did not answer in time: check that it is not overloaded, and the network path to it."
              : "check the NetBox URL (NETBOX_URL or `url` in the NetBox config), that NetBox is running, and the network path to it.";
  }

  override userMessage(): string {
    return `cannot reach NetBox at ${this.url} (${this.code}): ${this.hint}`;
  }
}
