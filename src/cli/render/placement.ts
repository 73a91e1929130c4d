// `--follow-placement`: the guests someone else moved (HA, an operator) and pvectl leaves where
// they are, each with the node its spec names and the node it runs on, for the operator to write
// the live node into the spec. Nothing is changed by it.
import type { PlacementToFollow } from "../../app/plan-model.js";
import { safeLine } from "../../util/safe-text.js";
import type { Palette } from "./plan.js";

export function renderPlacementToFollow(moved: PlacementToFollow[], p: Palette): string {
  if (moved.length === 0) return "\nPlacement to follow: none (every guest runs on its spec's node, or pvectl moves it there).\n";
  const lines = moved.map((m) => {
    const id = m.vmid !== undefined ? ` (vmid ${m.vmid})` : "";
    return safeLine(`  ${m.guest}${id}: spec node ${m.specNode}, live node ${m.liveNode}: set node: ${m.liveNode} in its spec entry`);
  });
  return `\n${p.bold("Placement to follow")} (moved by someone else; pvectl leaves them where they are):\n${lines.join("\n")}\n`;
}
