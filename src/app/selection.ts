// How the use cases over many guests (snapshot, backup) are told which guests: by vmid, name,
// tag, pool, node or spec, and what they report back as selected, skipped and not found.
export {
  type GuestSelector,
  namesGuests,
  type SelectedSpecGuest,
  type Selection,
  SelectionError,
  selectGuests,
  type SkippedGuest,
} from "../engine/selection.js";
/** Which guests `import` writes a spec of (by vmid, tag, node, or all). */
export type { Selection as ImportSelection } from "../engine/show.js";
