// Text output of `pvectl access needs` and `pvectl access check`.
import type { AccessCheck, AccessNeeds, MissingPrivilege } from "../../app/access.js";
import { accessNeedsPlurals } from "../../app/object-names.js";
import { safeLine } from "../../util/safe-text.js";

function alternatives(p: { privilege: string; anyOf?: string[] }): string {
  return p.anyOf && p.anyOf.length > 1 ? `${p.privilege} (or ${p.anyOf.filter((a) => a !== p.privilege).join(", ")})` : p.privilege;
}

export function renderNeeds(needs: AccessNeeds): string {
  const lines: string[] = [];
  for (const { path, privileges } of needs.paths) {
    lines.push(safeLine(path));
    const width = Math.max(...privileges.map((p) => alternatives(p).length));
    for (const p of privileges)
      lines.push(`  ${alternatives(p).padEnd(width)}  ${safeLine(p.operations.join(", "))}: ${safeLine(p.users.join(", "))}`);
  }
  if (needs.paths.length === 0)
    lines.push(`nothing: the specs declare ${["guests", ...accessNeedsPlurals()].map((p) => `no ${p}`).join(" and ")}`);
  for (const note of needs.notes) lines.push(`note: ${safeLine(note)}`);
  return `${lines.join("\n")}\n`;
}

function missingLine(m: MissingPrivilege): string {
  const elsewhere = (m.orOn ?? []).map((o) => ` (or ${o.privilege} on ${o.path})`).join("");
  return `  ${alternatives(m)}${elsewhere}  needed by ${m.operations.join(", ")} of ${m.users.join(", ")}`;
}

/** `source`: what the needs came from ("the specs", "the NetBox config"). */
export function renderCheck(check: AccessCheck, source = "the specs"): string {
  if (check.missing.length === 0) return `${safeLine(check.subject)} holds every privilege ${source} need\n`;
  const lines = [
    `${safeLine(check.subject)} lacks ${check.missing.length} privilege${check.missing.length === 1 ? "" : "s"} ${source} need:`,
  ];
  let path = "";
  for (const m of check.missing) {
    if (m.path !== path) lines.push(safeLine(m.path));
    path = m.path;
    lines.push(safeLine(missingLine(m)));
  }
  if (check.holdsNothing)
    lines.push(
      `note: PVE lists no privilege at all for ${safeLine(check.subject)}; it answers the same for an id that does not exist, so check the id`,
    );
  lines.push("grant them (pvectl access needs --format spec writes the roles and ACL entries), then check again");
  return `${lines.join("\n")}\n`;
}
