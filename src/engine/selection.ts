// Which guests an operation over many guests (snapshots, backups) acts on. One rule for every
// such command: the guests a spec names, vmids and names given explicitly, narrowed by tag, pool
// and node; or every guest of the cluster, but only when asked for with `all` (the CLI confirms
// it). Selecting is not permission to change: a guest pvectl did not create is acted on only
// when a spec adopts it or the operator says so (`includeForeign`); otherwise it is listed as
// skipped, so an operator sees what was left out and why.
import type { GuestType } from "../plan/intent.js";
import { UsageProblem } from "../util/errors.js";
import type { GuestSummary } from "./cluster.js";
import { findGuest, isOwned } from "./identity.js";

/** A spec's guest as selection needs it. */
export interface SelectedSpecGuest {
  name: string;
  vmid?: number;
  node?: string;
  kind?: GuestType;
  adopt?: boolean;
}

export interface GuestSelector {
  /** Guests of spec files (`-f`), found as plan finds them. */
  spec?: SelectedSpecGuest[];
  vmids?: number[];
  names?: string[];
  /** Narrowing filters: a guest must carry every tag, and be in one of the pools and on one of the nodes. */
  tags?: string[];
  pools?: string[];
  nodes?: string[];
  /** Every guest of the cluster (before the filters). */
  all?: boolean;
  /** Act on guests pvectl did not create too (the operator named them and means it). */
  includeForeign?: boolean;
  /** Templates stay out (an operation PVE refuses on templates: snapshots). */
  excludeTemplates?: boolean;
}

export interface SkippedGuest {
  guest: GuestSummary;
  reason: string;
}

export interface Selection {
  /** The guests to act on, by vmid. */
  guests: GuestSummary[];
  /** Selected but left out, each with why (not created by pvectl, a template). */
  skipped: SkippedGuest[];
  /** What the selector names that the cluster does not have (a vmid, a name, a spec guest not created yet). */
  notFound: string[];
}

export class SelectionError extends UsageProblem {
  override name = "SelectionError";
}

/** Whether the selector names any guest at all (an operation without one is refused, never "every guest"). */
export function namesGuests(selector: GuestSelector): boolean {
  const named = [selector.spec, selector.vmids, selector.names, selector.tags, selector.pools, selector.nodes];
  return selector.all === true || named.some((list) => list !== undefined && list.length > 0);
}

export function selectGuests(cluster: GuestSummary[], selector: GuestSelector): Selection {
  if (!namesGuests(selector)) {
    throw new SelectionError(
      "no guests selected",
      "name them: -f SPEC, --vmid N, --name NAME, --tag T, --pool P or --node N (repeatable); --all for every guest of the cluster",
    );
  }
  const { candidates, adopted, notFound } = baseSet(cluster, selector);
  const chosen = candidates.filter((g) => passesFilters(g, selector));
  const guests: GuestSummary[] = [];
  const skipped: SkippedGuest[] = [];
  for (const guest of chosen) {
    const reason = skipReason(guest, selector, adopted);
    if (reason === undefined) guests.push(guest);
    else skipped.push({ guest, reason });
  }
  return { guests, skipped, notFound };
}

interface BaseSet {
  candidates: GuestSummary[];
  /** vmids a spec marks `adopt: true`. */
  adopted: Set<number>;
  notFound: string[];
}

/** The guests named explicitly (spec, vmid, name), or every guest when nothing is named explicitly. */
function baseSet(cluster: GuestSummary[], selector: GuestSelector): BaseSet {
  const explicit = [selector.spec, selector.vmids, selector.names].some((list) => list !== undefined && list.length > 0);
  if (!explicit) return { candidates: [...cluster].sort(byVmid), adopted: new Set(), notFound: [] };
  const found = new Map<number, GuestSummary>();
  const adopted = new Set<number>();
  const notFound: string[] = [];
  for (const entry of selector.spec ?? []) {
    const match = findGuest(entry, cluster);
    if (match.kind === "found") {
      found.set(match.guest.vmid, match.guest);
      if (entry.adopt === true) adopted.add(match.guest.vmid);
    } else if (match.kind === "absent") notFound.push(`${entry.name} (in the spec, not created yet)`);
    else notFound.push(`${entry.name}: ${match.message}`);
  }
  for (const vmid of new Set(selector.vmids ?? [])) {
    const guest = cluster.find((g) => g.vmid === vmid);
    if (guest) found.set(vmid, guest);
    else notFound.push(`vmid ${vmid}`);
  }
  for (const name of new Set(selector.names ?? [])) {
    const named = cluster.filter((g) => g.name === name);
    for (const guest of named) found.set(guest.vmid, guest);
    if (named.length === 0) notFound.push(`name ${name}`);
  }
  return { candidates: [...found.values()].sort(byVmid), adopted, notFound };
}

function passesFilters(guest: GuestSummary, selector: GuestSelector): boolean {
  if (selector.tags && !selector.tags.every((tag) => guest.tags.includes(tag))) return false;
  if (selector.pools?.length && (guest.pool === undefined || !selector.pools.includes(guest.pool))) return false;
  if (selector.nodes?.length && !selector.nodes.includes(guest.node)) return false;
  return true;
}

function skipReason(guest: GuestSummary, selector: GuestSelector, adopted: Set<number>): string | undefined {
  if (selector.excludeTemplates && guest.template) return "a template (PVE does not take snapshots of templates)";
  if (!isOwned(guest) && !adopted.has(guest.vmid) && selector.includeForeign !== true) {
    return "not created by pvectl (no pvectl tag); name it and add --include-foreign to act on it, or adopt it in a spec";
  }
  return undefined;
}

function byVmid(a: GuestSummary, b: GuestSummary): number {
  return a.vmid - b.vmid;
}
