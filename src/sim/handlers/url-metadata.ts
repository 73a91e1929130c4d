// GET /nodes/{node}/query-url-metadata (pve-manager API2/Nodes.pm): what a HEAD request to the
// URL would say — file name, size, MIME type. The simulator has no network, so the answer is
// derived from the URL alone (deterministic; see docs/simulator.md): the name is the last path
// element (PVE's fallback when the server sends no Content-Disposition), the size is the one
// `download-url` later stores for the same URL, and the type comes from the extension.
import { createHash } from "node:crypto";
import { type HandlerContext, PveApiError, type Router } from "../contract.js";
import { nodeParam, sim, str } from "./context.js";

/** Bytes a "download" of this URL has: the same for query-url-metadata and download-url. */
export function simulatedUrlSize(url: string): number {
  return 50 * 1024 * 1024 + (createHash("sha1").update(url).digest().readUInt32BE(0) % (700 * 1024 * 1024));
}

// What web servers commonly send for the files PVE users download (ISO, templates, images).
const MIME_TYPES: Array<[RegExp, string]> = [
  [/\.iso$/i, "application/x-iso9660-image"],
  [/\.(tar\.gz|tgz)$/i, "application/gzip"],
  [/\.tar\.zst$/i, "application/zstd"],
  [/\.tar\.xz$/i, "application/x-xz"],
  [/\.(qcow2|img|raw|vmdk)$/i, "application/octet-stream"],
  [/(\.html?|\/)$/i, "text/html"],
  [/\.txt$/i, "text/plain"],
];

/**
 * Hosts that stand for an unreachable server, so clients can test PVE's failure answer:
 * `.invalid` (RFC 2606) never resolves.
 */
function unreachable(host: string): boolean {
  return host === "invalid" || host.endsWith(".invalid");
}

export function urlMetadata(url: string): Record<string, string | number> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new PveApiError(500, `invalid server response: '400 URL must be absolute'`);
  }
  if (unreachable(parsed.hostname)) {
    const port = parsed.port || (parsed.protocol === "https:" ? "443" : "80");
    throw new PveApiError(500, `invalid server response: '500 Can't connect to ${parsed.hostname}:${port} (Name or service not known)'`);
  }
  const out: Record<string, string | number> = {};
  // PVE takes the last path element of the URL without its query (empty for a directory URL)
  const filename = decodeURIComponent(parsed.pathname.split("/").pop() ?? "");
  if (filename) out.filename = filename;
  out.size = simulatedUrlSize(url);
  out.mimetype = MIME_TYPES.find(([re]) => re.test(parsed.pathname))?.[1] ?? "application/octet-stream";
  return out;
}

function queryUrlMetadata(ctx: HandlerContext): Record<string, string | number> {
  sim(ctx).requireNode(nodeParam(ctx));
  return urlMetadata(str(ctx, "url") ?? "");
}

export function registerUrlMetadataHandler(router: Router): void {
  router.add("GET", "/nodes/{node}/query-url-metadata", queryUrlMetadata);
}
