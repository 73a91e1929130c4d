// Which live guest a spec entry's `clone.from` means. A vmid names the source directly (any
// guest the user may read, a template made by hand included). A name is matched only among the
// guests that carry pvectl's ownership tag, as identity does, so a name never picks a guest
// someone else made; same-named templates, one per node, are told apart by `clone.node`, else
// the one on the node the new guest goes to.
import { type DesiredGuest, kindOf, OWNERSHIP_TAG } from "../resources/index.js";
import type { GuestSummary } from "./cluster.js";

export type SourceMatch = { kind: "found"; guest: GuestSummary } | { kind: "error"; message: string };

function where(g: GuestSummary): string {
  return `${g.vmid} on ${g.node}`;
}

function byVmid(vm: DesiredGuest, vmid: number, guests: GuestSummary[]): SourceMatch {
  const type = kindOf(vm).type;
  const guest = guests.find((g) => g.vmid === vmid);
  if (!guest)
    return {
      kind: "error",
      message: `clone.from: no guest with vmid ${vmid} is visible in the cluster (it does not exist, or this user may not see it)`,
    };
  if (guest.type !== type)
    return {
      kind: "error",
      message: `clone.from: vmid ${vmid} is a ${guest.type} guest; a ${type} guest can only be cloned from a ${type} guest`,
    };
  if (vm.clone?.node !== undefined && guest.node !== vm.clone.node) {
    return { kind: "error", message: `clone.from: vmid ${vmid} is on ${guest.node}, not on ${vm.clone.node} as clone.node says` };
  }
  return { kind: "found", guest };
}

function byName(vm: DesiredGuest, name: string, guests: GuestSummary[]): SourceMatch {
  const type = kindOf(vm).type;
  const named = guests.filter((g) => g.type === type && g.name === name);
  const owned = named.filter((g) => g.tags.includes(OWNERSHIP_TAG) && (vm.clone?.node === undefined || g.node === vm.clone.node));
  if (owned.length === 0) {
    const onNode = vm.clone?.node !== undefined ? ` on ${vm.clone.node}` : "";
    const hint =
      named.length > 0
        ? `; ${named.map(where).join(", ")} ${named.length > 1 ? "have" : "has"} that name but not the ${OWNERSHIP_TAG} tag: write its vmid as clone.from`
        : "";
    return { kind: "error", message: `clone.from: no guest named ${name} with the ${OWNERSHIP_TAG} tag${onNode}${hint}` };
  }
  if (owned.length === 1) return { kind: "found", guest: owned[0]! };
  const local = owned.filter((g) => g.node === vm.node);
  if (local.length === 1) return { kind: "found", guest: local[0]! };
  return {
    kind: "error",
    message: `clone.from: ${owned.length} guests are named ${name} (${owned.map(where).join(", ")}); write the vmid as clone.from, or clone.node`,
  };
}

export function findCloneSource(vm: DesiredGuest, guests: GuestSummary[]): SourceMatch {
  const from = vm.clone!.from;
  return typeof from === "number" ? byVmid(vm, from, guests) : byName(vm, from, guests);
}
