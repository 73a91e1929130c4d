// A fetch for the simulator's HTTPS tests that trusts one CA (the simulator's own, as a careful
// client would): Node's global fetch takes no CA. Plain node:https, not pvectl's client, so
// that the simulator is checked against something that is not the code it is meant to test.
import { Agent, request } from "node:https";

export interface TrustingInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface TrustingResponse {
  status: number;
  statusText: string;
  headers: Headers;
  text(): Promise<string>;
  json(): Promise<unknown>;
}

/** One keep-alive agent per CA, as a client that reuses its connections. */
const agents = new Map<string, Agent>();

function agentFor(ca: string): Agent {
  let agent = agents.get(ca);
  if (!agent) {
    agent = new Agent({ ca, keepAlive: true });
    agents.set(ca, agent);
  }
  return agent;
}

/** `url` over HTTPS, verified against `ca` (chain and host name), its answer read whole. */
export function trustingFetch(url: string, ca: string, init: TrustingInit = {}): Promise<TrustingResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? "GET", headers: init.headers ?? {}, agent: agentFor(ca) }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        text += chunk;
      });
      res.on("error", reject);
      res.on("end", () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
        }
        resolve({
          status: res.statusCode ?? 0,
          statusText: res.statusMessage ?? "",
          headers,
          text: async () => text,
          json: async () => JSON.parse(text) as unknown,
        });
      });
    });
    req.on("error", reject);
    req.end(init.body);
  });
}
