// Shared helpers of the simulator platform tests: a tiny HTTP client that shows exactly what
// the wire carries (status, reason phrase, raw body) and login/token shortcuts.
import { type RunningSimulator, type SimulatorOptions, startSimulator } from "../../src/sim/index.js";
import { trustingFetch } from "./trusting-fetch.js";

export interface WireResponse {
  status: number;
  reason: string;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: test responses are inspected field by field
  json: any;
  headers: Headers;
}

export type Credentials = { ticket: string; csrf?: string } | { token: string } | undefined;

export interface CallOptions {
  params?: Record<string, string | number | string[]>;
  json?: Record<string, unknown>;
  auth?: Credentials;
  /** Send the CSRF token (default true when auth has one). */
  csrf?: boolean;
  headers?: Record<string, string>;
}

export function startHttpSim(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  return startSimulator({ https: false, port: 0, seed: 42, ...options });
}

function encodeForm(params: Record<string, string | number | string[]>): string {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (Array.isArray(v)) for (const item of v) form.append(k, item);
    else form.append(k, String(v));
  }
  return form.toString();
}

export async function call(sim: RunningSimulator, method: string, path: string, options: CallOptions = {}): Promise<WireResponse> {
  const headers: Record<string, string> = { ...options.headers };
  const auth = options.auth;
  if (auth && "ticket" in auth) {
    headers.Cookie = `PVEAuthCookie=${auth.ticket}`;
    if (auth.csrf && options.csrf !== false && method !== "GET") headers.CSRFPreventionToken = auth.csrf;
  } else if (auth && "token" in auth) headers.Authorization = `PVEAPIToken=${auth.token}`;
  let url = `${sim.url}/api2/json${path}`;
  let body: string | undefined;
  if (options.json) {
    body = JSON.stringify(options.json);
    headers["Content-Type"] = "application/json";
  } else if (options.params) {
    if (method === "GET" || method === "DELETE") url += `?${encodeForm(options.params)}`;
    else {
      body = encodeForm(options.params);
      headers["Content-Type"] = "application/x-www-form-urlencoded";
    }
  }
  const init = { method, headers, ...(body !== undefined ? { body } : {}) };
  // Over HTTPS the simulator's own CA is trusted, as a careful client would.
  const res = sim.ca ? await trustingFetch(url, sim.ca, init) : await fetch(url, init);
  const text = await res.text();
  return { status: res.status, reason: res.statusText, text, json: text ? JSON.parse(text) : undefined, headers: res.headers as Headers };
}

export async function login(sim: RunningSimulator, username = "root@pam", password = sim.rootPassword) {
  const res = await call(sim, "POST", "/access/ticket", { params: { username, password } });
  if (res.status !== 200) throw new Error(`login of ${username} failed: ${res.status} ${res.reason}`);
  return { ticket: res.json.data.ticket as string, csrf: res.json.data.CSRFPreventionToken as string };
}

/** Creates a pve-realm user with a password and returns its ticket credentials. */
export async function createUser(sim: RunningSimulator, root: Credentials, userid: string, password = "secret123") {
  const res = await call(sim, "POST", "/access/users", { auth: root, params: { userid, password } });
  if (res.status !== 200) throw new Error(`creating ${userid} failed: ${res.status} ${res.reason}`);
  return login(sim, userid, password);
}

export async function createToken(sim: RunningSimulator, auth: Credentials, userid: string, tokenid: string, privsep: 0 | 1) {
  const res = await call(sim, "POST", `/access/users/${userid}/token/${tokenid}`, { auth, params: { privsep } });
  if (res.status !== 200) throw new Error(`creating token ${tokenid} failed: ${res.status} ${res.reason} ${res.text}`);
  return { token: `${res.json.data["full-tokenid"]}=${res.json.data.value}` };
}

export async function grant(
  sim: RunningSimulator,
  root: Credentials,
  path: string,
  roles: string,
  who: Record<string, string>,
  propagate = 1,
) {
  const res = await call(sim, "PUT", "/access/acl", { auth: root, params: { path, roles, propagate, ...who } });
  if (res.status !== 200) throw new Error(`ACL ${path} ${roles} failed: ${res.status} ${res.reason} ${res.text}`);
}

export interface AdminAnswer {
  status: number;
  json: { data?: unknown; error?: string };
}

/** A call to the admin API (/_sim) as its documented clients make it: the token, and JSON bodies. */
export async function adminCall(sim: RunningSimulator, method: string, path: string, body?: unknown): Promise<AdminAnswer> {
  const headers: Record<string, string> = { "X-Sim-Admin-Token": sim.adminToken };
  if (body !== undefined || method === "POST" || method === "PUT") headers["Content-Type"] = "application/json";
  const init = { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) };
  const url = `${sim.url}/_sim${path}`;
  const res = sim.ca ? await trustingFetch(url, sim.ca, init) : await fetch(url, init);
  return { status: res.status, json: (await res.json()) as AdminAnswer["json"] };
}
