// What an API token's secret looks like: PVE makes it a UUID (pve-access-control
// TokenConfig.pm generate_token, `UUID::uuid()`), shown once in the answer to the token's
// create. pvectl writes it to the token's secretFile followed by a newline. Reading such a
// file back tells a kept secret from a lost one: nothing there (a run killed between the
// token's create and the write), or the first characters of a UUID only (a write cut off),
// means the secret is lost; anything else is not pvectl's to judge.

const UUID_SHAPE = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";

/** Each character as a UUID has it at that place: a hex digit, or a dash. */
function fitsShape(text: string): boolean {
  if (text.length > UUID_SHAPE.length) return false;
  for (let i = 0; i < text.length; i++) {
    const ok = UUID_SHAPE[i] === "-" ? text[i] === "-" : /[0-9a-fA-F]/.test(text[i]!);
    if (!ok) return false;
  }
  return true;
}

/**
 * What a token secret file's text holds: `secret` (a whole UUID, whitespace around it
 * allowed), `nothing` (empty, blank, or a UUID cut off: the secret is lost), or `other`.
 */
export function secretFileHolds(text: string): "secret" | "nothing" | "other" {
  const trimmed = text.trim();
  if (trimmed === "") return "nothing";
  if (!fitsShape(trimmed)) return "other";
  return trimmed.length === UUID_SHAPE.length ? "secret" : "nothing";
}
