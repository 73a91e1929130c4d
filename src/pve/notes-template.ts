// A vzdump notes template as PVE checks it (pve-manager VZDump.pm, verify_notes_template, run by
// verify_vzdump_parameters for a backup job and a vzdump call alike): no raw line feed (the job
// would not survive jobs.cfg, one option a line; a new line is written `\n`), only the escapes
// `\n` and `\\`, and only the variables {{cluster}}, {{guestname}}, {{node}}, {{vmid}}.

const VARIABLES = new Set(["cluster", "guestname", "node", "vmid"]);

/** PVE's refusal of the template, in its words (undefined: accepted). */
export function notesTemplateProblem(template: string): string | undefined {
  if (template.includes("\n")) return "contains a line feed";
  const problems: string[] = [];
  for (const m of template.matchAll(/\\(.)/gs)) {
    if (m[1] !== "n" && m[1] !== "\\") problems.push(`escape sequence '\\${m[1]}' at char ${m.index}`);
  }
  for (const m of template.matchAll(/\{\{([^\s{}]+)\}\}/g)) {
    // PVE's position is its match's end minus the name's length: the name's start plus 2.
    if (!VARIABLES.has(m[1]!)) problems.push(`variable '${m[1]}' at char ${m.index + 4}`);
  }
  return problems.length > 0 ? `found unknown: ${problems.join(", ")}` : undefined;
}
