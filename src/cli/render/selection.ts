// What a selection of guests left out, for people (before the plan) and for --json.
import type { Selection } from "../../app/selection.js";
import { safeLine } from "../../util/safe-text.js";
import { type Palette, plainPalette } from "./plan.js";

type LeftOut = Pick<Selection, "skipped" | "notFound">;

export function selectionNotes(selection: LeftOut, p: Palette = plainPalette): string {
  const lines: string[] = [];
  for (const { guest, reason } of selection.skipped) {
    lines.push(
      p.yellow(
        `skipped: ${safeLine(guest.name ?? `vmid ${guest.vmid}`)} (vmid ${guest.vmid}) on ${safeLine(guest.node)}: ${safeLine(reason)}`,
      ),
    );
  }
  for (const what of selection.notFound) lines.push(p.yellow(`not found: ${safeLine(what)}`));
  return lines.length > 0 ? `${lines.join("\n")}\n` : "";
}

export function selectionJson(selection: LeftOut): {
  skipped: Array<{ vmid: number; name?: string; node: string; reason: string }>;
  notFound: string[];
} {
  return {
    skipped: selection.skipped.map(({ guest, reason }) => ({
      vmid: guest.vmid,
      ...(guest.name !== undefined ? { name: guest.name } : {}),
      node: guest.node,
      reason,
    })),
    notFound: selection.notFound,
  };
}
