// Which cluster a plan was made for: its name (from /cluster/status, which needs Sys.Audit on
// `/`; a standalone node has none), its node names, and over HTTPS the SHA-256 fingerprint of
// the certificate the endpoint presents. A saved plan is refused on another cluster even when
// the address is the same (a DNS change, a rebuilt lab, a load balancer pointing elsewhere).
import { isIP } from "node:net";
import { connect } from "node:tls";
import { getClusterStatus } from "../api/endpoints/index.js";
import { isPveError, type PveClient } from "../api/index.js";
import type { ClusterSnapshot } from "./cluster.js";

export interface ClusterIdentity {
  /** The corosync cluster name; absent on a standalone node or without Sys.Audit on `/`. */
  name?: string;
  /** Node names, sorted. */
  nodes: string[];
  /** SHA-256 fingerprint of the endpoint's certificate (`AA:BB:...`); absent over plain HTTP. */
  fingerprint?: string;
}

async function clusterName(client: PveClient): Promise<string | undefined> {
  try {
    const entries = await getClusterStatus(client);
    return entries.find((e) => e.type === "cluster")?.name;
  } catch (err) {
    // Without Sys.Audit the name stays unknown; the node list and fingerprint still identify.
    if (isPveError(err) && err.kind === "permission") return undefined;
    throw err;
  }
}

/**
 * The certificate the endpoint presents. Only read, never trusted: the client's own
 * connection verifies it (pin, CA or system store); no credentials go over this handshake.
 */
export function endpointFingerprint(origin: string, timeoutMs = 10_000): Promise<string | undefined> {
  const url = new URL(origin);
  if (url.protocol !== "https:") return Promise.resolve(undefined);
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port: Number(url.port), rejectUnauthorized: false, ...(isIP(host) ? {} : { servername: host }) }, () => {
      const fingerprint = socket.getPeerX509Certificate()?.fingerprint256;
      socket.destroy();
      resolve(fingerprint);
    });
    socket.setTimeout(timeoutMs, () => {
      socket.destroy();
      reject(new Error(`no TLS handshake with ${origin} within ${timeoutMs / 1000} s`));
    });
    socket.on("error", reject);
  });
}

export async function readClusterIdentity(client: PveClient, cluster: ClusterSnapshot): Promise<ClusterIdentity> {
  const [name, fingerprint] = await Promise.all([clusterName(client), endpointFingerprint(client.origin)]);
  return {
    ...(name !== undefined ? { name } : {}),
    nodes: [...cluster.nodes.keys()].sort(),
    ...(fingerprint !== undefined ? { fingerprint } : {}),
  };
}

/** Why `live` is not the cluster `saved` describes; empty when it is. */
export function compareIdentity(saved: ClusterIdentity, live: ClusterIdentity): string[] {
  const problems: string[] = [];
  // The name is compared when both runs could read it (plan and apply may use different tokens).
  if (saved.name !== undefined && live.name !== undefined && saved.name !== live.name) {
    problems.push(`it was made for cluster ${saved.name}, but the endpoint now belongs to cluster ${live.name}`);
  }
  if (saved.nodes.join(",") !== live.nodes.join(",")) {
    problems.push(
      `it was made for a cluster with nodes ${saved.nodes.join(", ") || "(none)"}, the cluster now has ${live.nodes.join(", ") || "(none)"}`,
    );
  }
  if (saved.fingerprint !== live.fingerprint) {
    problems.push(
      `the endpoint's TLS certificate is not the one the plan was made with (fingerprint ${saved.fingerprint ?? "(plain HTTP)"} is now ${live.fingerprint ?? "(plain HTTP)"})`,
    );
  }
  return problems;
}
