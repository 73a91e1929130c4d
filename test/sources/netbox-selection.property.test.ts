// The config's `select:` merged with a command's narrowing flags (netbox sync, decommission and
// diff share recordSelection). The invariant an operator relies on: a flag can only narrow what
// the config selects, never widen it. Records are matched here the way NetBox filters them
// (any of the clusters, any of the sites, every one of the tags), so "narrows" means: a record
// the merged selection matches is matched by the config alone and by the flags alone, and a
// record both match is not lost.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { parseNetboxConfig } from "../../src/sources/netbox/config.js";
import type { RecordSelection } from "../../src/sources/netbox/records.js";
import { recordSelection, type SelectionFlags, SelectionOutsideConfig } from "../../src/sources/netbox/selection.js";
import { DEMO_CONFIG } from "../netbox/fixtures.js";

const BASE = parseNetboxConfig(DEMO_CONFIG, "netbox.yaml");
const word = fc.constantFrom("a", "b", "c", "d");
const words = fc.uniqueArray(word, { maxLength: 3 });
const select = fc.record({ clusters: words, sites: words, tags: words });
const flags = fc.record(
  { clusters: words, sites: words, tags: words, names: fc.uniqueArray(fc.constantFrom("web-01", "db-01"), { maxLength: 2 }) },
  { requiredKeys: [] },
);
const record = fc.record({ cluster: word, site: word, tags: words, name: fc.constantFrom("web-01", "db-01", "app-01") });
type Rec = { cluster: string; site: string; tags: string[]; name: string };

/** NetBox's filter semantics; an empty or absent list does not filter. */
function matches(r: Rec, s: Omit<RecordSelection, "status">): boolean {
  const anyOf = (list: string[] | undefined, v: string) => !list?.length || list.includes(v);
  return (
    anyOf(s.clusters, r.cluster) && anyOf(s.sites, r.site) && anyOf(s.names, r.name) && (s.tags ?? []).every((t) => r.tags.includes(t))
  );
}

const configWith = (sel: { clusters: string[]; sites: string[]; tags: string[] }) => ({ ...BASE, select: { ...BASE.select, ...sel } });

describe("recordSelection: the configured selection narrowed by flags", () => {
  it("selects exactly the records both the config and the flags select, or refuses when none could be", () => {
    fc.assert(
      fc.property(select, flags, fc.array(record, { maxLength: 8 }), (sel, f: SelectionFlags, recs) => {
        const config = configWith(sel);
        let merged: RecordSelection;
        try {
          merged = recordSelection(config, f, ["planned"]);
        } catch (err) {
          assert.ok(err instanceof SelectionOutsideConfig);
          // Refused only when a cluster or site flag shares nothing with the config's list.
          const disjoint = (c: string[], g: string[] | undefined) => c.length > 0 && !!g?.length && !g.some((v) => c.includes(v));
          assert.ok(disjoint(sel.clusters, f.clusters) || disjoint(sel.sites, f.sites));
          return;
        }
        for (const r of recs) {
          assert.equal(matches(r, merged), matches(r, sel) && matches(r, f), JSON.stringify({ r, sel, f, merged }));
        }
      }),
      { numRuns: 500 },
    );
  });

  it("keeps the caller's status and without flags is the config's selection", () => {
    fc.assert(
      fc.property(
        select,
        fc.constantFrom<RecordSelection["status"]>(undefined, "decommissioning", ["planned", "staged"]),
        (sel, status) => {
          const merged = recordSelection(configWith(sel), undefined, status);
          assert.deepEqual(merged, { ...(status !== undefined ? { status } : {}), ...sel });
        },
      ),
    );
  });

  it("a cluster the config leaves out is refused with what to do, not read", () => {
    const config = configWith({ clusters: ["pve-lab"], sites: [], tags: [] });
    assert.throws(
      () => recordSelection(config, { clusters: ["pve-prod"] }, undefined),
      (err: unknown) =>
        err instanceof SelectionOutsideConfig &&
        err.userMessage() ===
          "--cluster pve-prod: not in select.clusters of netbox.yaml (pve-lab); a flag can only narrow the configured selection\n  give one of pve-lab, or add it to select.clusters in netbox.yaml",
    );
  });
});
