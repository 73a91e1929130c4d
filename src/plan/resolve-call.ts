// A planned call made concrete at the moment it is sent: the path template filled from the path
// parameters (each segment percent-encoded), the vmid apply allocated put where the plan has an
// allocated-vmid reference, and each cloned-volume reference replaced by the volume the copy's
// config names. What the intent says is not repeated in the body and is added here (a resize's
// disk and size).
import { formatSize } from "../pve/size.js";
import {
  type BodyValue,
  type EndpointCall,
  isAllocatedVmid,
  isClonedVolumeValue,
  type ParamValue,
  type PathValue,
  plannedBody,
} from "./call.js";
import type { CallIntent } from "./intent.js";

/** What apply knows that the plan could not: the guest's vmid, and the volumes a clone made. */
export interface ApplyFacts {
  /** The guest's vmid (known from the plan, or allocated by this apply). */
  vmid?: number;
  /** The volume the copy's `slot` holds, as PVE named it when it copied it. */
  clonedVolume?: (slot: string) => string;
}

export interface ResolvedCall {
  method: EndpointCall["method"];
  /** The concrete path, as the client sends it. */
  path: string;
  params: Record<string, ParamValue>;
}

type PlannedCall = EndpointCall & { intent: CallIntent };

const PLACEHOLDER = /\{([^}]+)\}/g;

function pathValue(call: EndpointCall, name: string, value: PathValue | undefined, facts: ApplyFacts): string | number {
  if (value === undefined) throw new Error(`${call.method} ${call.endpoint}: the plan gives no ${name}`);
  if (!isAllocatedVmid(value)) return value;
  if (facts.vmid === undefined) throw new Error(`${call.method} ${call.endpoint}: the vmid is allocated at apply and not known yet`);
  return facts.vmid;
}

/** The concrete path of the call. */
export function resolvePath(call: EndpointCall, facts: ApplyFacts = {}): string {
  return call.endpoint.replace(PLACEHOLDER, (_, name: string) =>
    encodeURIComponent(String(pathValue(call, name, call.pathParams[name], facts))),
  );
}

/** The path as the plan shows it, before apply: a vmid apply allocates is `{vmid}` there. */
export function plannedPath(call: EndpointCall): string {
  return call.endpoint.replace(PLACEHOLDER, (_, name: string) => {
    const value = call.pathParams[name];
    return isAllocatedVmid(value) ? `{${name}}` : encodeURIComponent(String(pathValue(call, name, value, {})));
  });
}

/** The slots whose cloned volumes the body names (read from the copy's config before sending). */
export function clonedVolumeSlots(call: EndpointCall): string[] {
  return Object.values(call.body).flatMap((v) => (isClonedVolumeValue(v) ? [v.clonedVolume] : []));
}

function bodyValue(value: BodyValue, facts: ApplyFacts): ParamValue {
  if (!isClonedVolumeValue(value)) return value;
  if (facts.clonedVolume === undefined) throw new Error(`the volume of ${value.clonedVolume} is named by the clone and not known yet`);
  const volume = facts.clonedVolume(value.clonedVolume);
  return value.options !== undefined && value.options !== "" ? `${volume},${value.options}` : volume;
}

/** Parameters the intent says and the body therefore leaves out. */
function intentParams(intent: CallIntent): Record<string, ParamValue> {
  if (intent.op === "resize") return { disk: intent.slot, size: formatSize(intent.sizeBytes) };
  return {};
}

/** The parameters sent: the body with its references resolved, and what the intent says. */
export function resolveParams(call: PlannedCall, facts: ApplyFacts = {}): Record<string, ParamValue> {
  const params: Record<string, ParamValue> = {};
  for (const [key, value] of Object.entries(call.body)) params[key] = bodyValue(value, facts);
  return { ...params, ...intentParams(call.intent) };
}

/** The parameters as the plan says them, before apply (a cloned volume as plannedValue shows it). */
export function plannedParams(call: PlannedCall): Record<string, ParamValue> {
  return { ...plannedBody(call), ...intentParams(call.intent) };
}

/**
 * The call as a request, the way plans said it before calls were typed (`path` with `{vmid}`,
 * `params` with `{volume:SLOT}`): for tests that compare a plan with what it sends, and messages.
 */
export function plannedRequest(call: PlannedCall & { growOnly?: boolean }) {
  return {
    method: call.method,
    path: plannedPath(call),
    params: plannedParams(call),
    intent: call.intent,
    ...(call.growOnly ? { growOnly: true } : {}),
  };
}

/** The call as it is sent. */
export function resolveCall(call: PlannedCall, facts: ApplyFacts = {}): ResolvedCall {
  return { method: call.method, path: resolvePath(call, facts), params: resolveParams(call, facts) };
}
