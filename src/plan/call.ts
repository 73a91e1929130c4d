// A planned API call as a typed value: the endpoint as PVE's schema names it, the values of its
// path placeholders, and the body. Two things are not known when a plan is made and are said
// as typed references instead of text: the vmid apply allocates (the spec names none), and a
// volume PVE names only when a clone of this plan copies it. The step runner resolves both
// (resolve-call.ts); nothing fills a placeholder in a path or a value string.
import type { ApiPath, HttpMethod, PathsWith } from "../schema/index.js";

/** A vmid PVE gives only at apply: the step runner sends the one it allocated. */
export interface AllocatedVmid {
  readonly allocated: "vmid";
}

export const ALLOCATED_VMID: AllocatedVmid = Object.freeze({ allocated: "vmid" });

/** A guest's vmid as a plan knows it: a number, or the one apply allocates. */
export type VmidRef = number | AllocatedVmid;

export function isAllocatedVmid(value: unknown): value is AllocatedVmid {
  return typeof value === "object" && value !== null && (value as { allocated?: unknown }).allocated === "vmid";
}

/**
 * A config value whose volume is a copy the clone step of this plan makes (`slot`'s copy):
 * sent as that volume, as the copy's config names it, followed by `options` (the drive or
 * mount point options, PVE's `volume,opt=value,...`).
 */
export interface ClonedVolumeValue {
  clonedVolume: string;
  options?: string;
}

export function isClonedVolumeValue(value: unknown): value is ClonedVolumeValue {
  return typeof value === "object" && value !== null && typeof (value as { clonedVolume?: unknown }).clonedVolume === "string";
}

export type ParamValue = string | number;

/** A value of a call's body: plain, or naming a cloned volume. */
export type BodyValue = ParamValue | ClonedVolumeValue;

/** A value of a path placeholder. */
export type PathValue = string | VmidRef;

/** The `{name}`s of a path template, from the generated endpoint names (`"node" | "vmid"`). */
type Placeholders<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | Placeholders<Rest> : never;

/** The path parameters endpoint P needs: each placeholder once; a vmid may be allocated at apply. */
export type PathParamsOf<P extends string> = { [K in Placeholders<P>]: K extends "vmid" ? VmidRef : string | number };

/** The part of a planned call that says where it goes and what it sends. */
export interface EndpointCall {
  method: HttpMethod;
  /** The endpoint's path template, as the schema names it (`/nodes/{node}/qemu/{vmid}/config`). */
  endpoint: ApiPath;
  /** The value of each placeholder of `endpoint`. */
  pathParams: Record<string, PathValue>;
  /** Sent as the body (query for GET and DELETE). A resize's `disk` and `size` are its intent's (resolve-call.ts). */
  body: Record<string, BodyValue>;
}

/**
 * The call to endpoint P with method M: the endpoint must exist in the schema with that method,
 * and the path parameters must be exactly its placeholders (both checked by the compiler).
 */
export function endpointCall<M extends HttpMethod, P extends PathsWith<M>>(
  method: M,
  endpoint: P,
  pathParams: PathParamsOf<P>,
  body: Record<string, BodyValue> = {},
): EndpointCall {
  return { method, endpoint, pathParams: pathParams as Record<string, PathValue>, body };
}

/**
 * A body value as the plan says it, for code that compares or predicts config values before
 * apply (a cloned volume is `{volume:SLOT}`, as the predicted copy's model names it): never sent.
 */
export function plannedValue(value: BodyValue): ParamValue {
  if (!isClonedVolumeValue(value)) return value;
  const volume = `{volume:${value.clonedVolume}}`;
  return value.options !== undefined ? `${volume},${value.options}` : volume;
}

/** Every body value as the plan says it (see plannedValue). */
export function plannedBody(call: Pick<EndpointCall, "body">): Record<string, ParamValue> {
  return Object.fromEntries(Object.entries(call.body).map(([key, value]) => [key, plannedValue(value)]));
}
