// Which live guest a spec entry means. The vmid is the identity. A spec entry without a vmid
// is found by its name among the guests that carry pvectl's ownership tag (every guest pvectl
// creates has it); two such guests with the name is an error, never a guess. An untagged guest
// is never adopted silently: by name it is not matched at all, and by vmid the plan refuses it
// (adoptionProblem) unless the spec entry says `adopt: true` or the run has `--adopt`.
import type { GuestType } from "../plan/intent.js";
import { kindOf, OWNERSHIP_TAG } from "../resources/index.js";
import type { GuestSummary } from "./cluster.js";
import type { PreflightProblem } from "../plan/types.js";

/** Whether pvectl created the guest (it carries the ownership tag). */
export function isOwned(guest: Pick<GuestSummary, "tags">): boolean {
  return guest.tags.includes(OWNERSHIP_TAG);
}

/** How a spec allows adopting (NetBox sync passes its own config key instead). */
const ADOPT_HINT = "add `adopt: true` to this spec entry (or run with --adopt)";

/**
 * The spec names (by vmid) a guest pvectl did not create and adopting it was not allowed:
 * nothing is done to it, and the problem says which guest it is and how to adopt it.
 */
export function adoptionProblem(key: string, guest: GuestSummary, what: "manage" | "destroy", hint = ADOPT_HINT): PreflightProblem {
  const tags = guest.tags.length > 0 ? guest.tags.join(";") : "none";
  const name = guest.name ?? "(no name)";
  return {
    kind: "adoption",
    guest: key,
    message:
      `vmid ${guest.vmid} is an existing guest that pvectl did not create (name ${name}, node ${guest.node}, tags: ${tags}; ` +
      `no ${OWNERSHIP_TAG} tag); pvectl will not ${what} it silently. To take it over, ${hint}: the plan then adds the ` +
      `${OWNERSHIP_TAG} tag as a step. Otherwise use another vmid`,
  };
}

export type Match =
  | { kind: "found"; guest: GuestSummary }
  | { kind: "absent"; warning?: string }
  /** `creating`: the vmids of guests in creation that may be this one (worth waiting for). */
  | { kind: "error"; message: string; creating?: number[] };

/** A guest being made: `lock: create`, or a copy in its clone task (`lock: clone`, no name yet; a source may hold that lock too, with its name). */
function inCreation(g: GuestSummary): boolean {
  return g.lock === "create" || (g.lock === "clone" && g.name === undefined);
}

/** How messages name a guest of each type. */
const GUEST_NOUN: Record<GuestSummary["type"], string> = { qemu: "a VM", lxc: "a container (LXC)" };

/**
 * `node`: where the spec puts the guest (pvectl creates it there); without it, any node.
 * Only guests of the spec entry's kind are candidates (`kind` absent: a VM).
 */
export function findGuest(spec: { name: string; vmid?: number; node?: string; kind?: GuestType }, guests: GuestSummary[]): Match {
  const type = kindOf(spec).type;
  if (spec.vmid !== undefined) {
    const guest = guests.find((g) => g.vmid === spec.vmid);
    if (!guest) return { kind: "absent" };
    if (guest.type !== type) {
      return {
        kind: "error",
        message: `vmid ${spec.vmid} is ${GUEST_NOUN[guest.type]} on ${guest.node}, not ${GUEST_NOUN[type]}; pick another vmid`,
      };
    }
    return { kind: "found", guest };
  }
  const named = guests.filter((g) => g.type === type && g.name === spec.name);
  const owned = named.filter((g) => g.tags.includes(OWNERSHIP_TAG));
  if (owned.length === 1) return { kind: "found", guest: owned[0]! };
  if (owned.length > 1) {
    const ids = owned.map((g) => `${g.vmid} on ${g.node}`).join(", ");
    return {
      kind: "error",
      message: `${owned.length} guests are named ${spec.name} and tagged ${OWNERSHIP_TAG} (${ids}); add the right vmid to the spec`,
    };
  }
  // During a create PVE's config holds only `lock: create` (no name, no tags yet): such a
  // guest may be this one, created by an apply that was interrupted or running alongside.
  // pvectl creates a guest on its spec's node, so only a create on that node can be it;
  // creating again could duplicate it, so the plan waits for it (see creates.ts).
  const creating = guests.filter(
    (g) => g.type === type && inCreation(g) && g.name !== spec.name && (spec.node === undefined || g.node === spec.node),
  );
  if (named.length === 0 && creating.length > 0) {
    const ids = creating.map((g) => `${g.vmid} on ${g.node}`).join(", ");
    return {
      kind: "error",
      message: `guest(s) ${ids} are being created right now and may be ${spec.name} (an interrupted apply); run again once they are finished`,
      creating: creating.map((g) => g.vmid),
    };
  }
  if (named.length > 0) {
    const ids = named.map((g) => g.vmid).join(", ");
    return {
      kind: "error",
      message:
        `a guest named ${spec.name} exists (vmid ${ids}) but was not created by pvectl (no ${OWNERSHIP_TAG} tag); ` +
        `set \`vmid: ${named[0]!.vmid}\` and \`adopt: true\` in the spec to manage it, or choose another name`,
    };
  }
  return { kind: "absent" };
}
