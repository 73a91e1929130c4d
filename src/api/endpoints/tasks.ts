// Task reads: a node's task list, one task's status, and its log a page at a time. The
// UPID is a path segment: it is URL-encoded like any other.
import type { ApiParams, ApiReturns } from "../../schema/index.js";
import { type ApiReader, concrete, type EnvelopeReader, get, getEnvelope } from "./call.js";

export type ListedTask = ApiReturns<"/nodes/{node}/tasks", "GET">[number];
export type TaskStatus = ApiReturns<"/nodes/{node}/tasks/{upid}/status", "GET">;

/** Tasks on `node`; with `source: "all"` the running ones too, each with its exit status once ended. */
export async function getNodeTasks(
  api: ApiReader,
  node: string,
  params: Omit<ApiParams<"/nodes/{node}/tasks", "GET">, "node">,
): Promise<ListedTask[]> {
  return get(api, "/nodes/{node}/tasks", { node, ...params });
}

/** The concrete status path of a task (errors name it). */
export function taskStatusPath(node: string, upid: string): string {
  return concrete<"/nodes/{node}/tasks/{upid}/status", "GET">("/nodes/{node}/tasks/{upid}/status", { node, upid }).path;
}

/** One task's state (`running` or `stopped`, then with its `exitstatus`); undefined when PVE answers without data. */
export async function getTaskStatus(
  api: EnvelopeReader,
  node: string,
  upid: string,
  signal?: AbortSignal,
): Promise<TaskStatus | undefined> {
  return (await getEnvelope(api, "/nodes/{node}/tasks/{upid}/status", { node, upid }, signal)).data ?? undefined;
}

export interface TaskLogPage {
  /** The lines' text, in order. */
  lines: string[];
  /** Lines the whole log has (PVE's `total`); the page's length when PVE does not say. */
  total: number;
}

/** Lines `start` .. `start + limit` of a task's log. Entries without text (not PVE's `{n, t}`) are skipped. */
export async function getTaskLog(
  api: EnvelopeReader,
  node: string,
  upid: string,
  page: { start: number; limit: number },
): Promise<TaskLogPage> {
  const { data, total } = await getEnvelope(api, "/nodes/{node}/tasks/{upid}/log", { node, upid, ...page });
  // A server may send anything: only entries that carry text count as lines.
  const entries: unknown[] = Array.isArray(data) ? data : [];
  const lines = entries.filter((e): e is { t: unknown } => typeof e === "object" && e !== null && "t" in e).map((e) => String(e.t));
  return { lines, total: typeof total === "number" ? total : lines.length };
}
