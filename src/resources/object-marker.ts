// pvectl's ownership marker of cluster objects that carry a comment (backup jobs, users, groups,
// tokens, pools): `[pvectl]` at the end of the comment, after the user's own text. Guests carry
// the ownership tag instead; roles and ACL entries have no comment (see resources/access/).

/** The end of the `comment` of every object pvectl manages. */
export const OBJECT_MARKER = "[pvectl]";

/** The comment pvectl writes: the user's text, then the marker. */
export function markedComment(text: string | undefined): string {
  const own = (text ?? "").trim();
  return own === "" ? OBJECT_MARKER : `${own} ${OBJECT_MARKER}`;
}

/** A live comment split into the user's text and whether pvectl's marker ends it. */
export function splitComment(comment: string | undefined): { text?: string; marked: boolean } {
  const trimmed = (comment ?? "").trim();
  const marked = trimmed.endsWith(OBJECT_MARKER);
  const text = (marked ? trimmed.slice(0, -OBJECT_MARKER.length) : trimmed).trim();
  return { ...(text !== "" ? { text } : {}), marked };
}
