// How every endpoint wrapper reaches PVE: the path template is filled from the parameters
// (each segment URL-encoded, so a node, storage or UPID cannot change the path's shape) and
// sent as a concrete path through the client; the answer is typed from the schema.
import type { ApiParams, ApiReturns, PathsWith } from "../../schema/index.js";
import { fillPath, type ParamsArg } from "../paths.js";
import type { Envelope, HttpMethod } from "../transport.js";

/** What a read needs from the client: PveClient, or anything with this one method (a test's fake, another client). */
export interface ApiReader {
  request(method: "GET", path: string, params?: Record<string, unknown>): Promise<unknown>;
}

/** What a write needs from the client. */
export interface ApiWriter {
  request(method: HttpMethod, path: string, params?: Record<string, unknown>): Promise<unknown>;
}

/** A read that needs the whole envelope (`total` of a paged list) or a way to cancel it. */
export interface EnvelopeReader {
  requestEnvelope(method: "GET", path: string, params?: Record<string, unknown>, signal?: AbortSignal): Promise<Envelope>;
}

/** `template` filled from `params`: the concrete path and the parameters left to send. */
export function concrete<P extends PathsWith<M>, M extends HttpMethod>(template: P, params: ApiParams<P, M> | undefined) {
  // The generator emits every ApiParams as an object type; TypeScript cannot see that through the generic.
  return fillPath(template, params as Record<string, unknown> | undefined);
}

/** GET `template`; the answer as the schema types it. */
export async function get<P extends PathsWith<"GET">>(
  api: ApiReader,
  template: P,
  ...[params]: ParamsArg<P, "GET">
): Promise<ApiReturns<P, "GET">> {
  const { path, rest } = concrete<P, "GET">(template, params);
  return (await api.request("GET", path, rest)) as ApiReturns<P, "GET">;
}

/** GET `template` for the whole envelope (`total` of a paged list), cancellable; `data` as the schema types it. */
export async function getEnvelope<P extends PathsWith<"GET">>(
  api: EnvelopeReader,
  template: P,
  params: ApiParams<P, "GET">,
  signal?: AbortSignal,
): Promise<{ data?: ApiReturns<P, "GET"> | null; total?: unknown }> {
  const { path, rest } = concrete<P, "GET">(template, params);
  const envelope = await api.requestEnvelope("GET", path, rest, signal);
  return { data: envelope.data as ApiReturns<P, "GET"> | null | undefined, total: envelope.total };
}

/** PUT `template`; the answer as the schema types it. */
export async function put<P extends PathsWith<"PUT">>(
  api: ApiWriter,
  template: P,
  ...[params]: ParamsArg<P, "PUT">
): Promise<ApiReturns<P, "PUT">> {
  const { path, rest } = concrete<P, "PUT">(template, params);
  return (await api.request("PUT", path, rest)) as ApiReturns<P, "PUT">;
}

/**
 * For an endpoint whose schema return type is too loose (`object`, or missing what pvectl
 * reads): the answer in the wrapper's own shape. Every use names where that shape comes from.
 */
export function wireShape<T>(data: unknown): T {
  return data as T;
}
