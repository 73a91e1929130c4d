// PVE::Tools::validate_ssh_public_keys runs `ssh-keygen -l` on every non-empty line and refuses
// the lot with one message when any line fails. What ssh-keygen reads is pve/ssh-keys.ts (shared
// with the spec loader, which checks the same lines before anything is sent).
import { sshPublicKeyProblem } from "../../pve/ssh-keys.js";
import { PveApiError } from "../contract.js";

export function validateSshPublicKeys(raw: string): void {
  for (const line of raw.split("\n")) {
    if (line.trim() === "") continue;
    if (sshPublicKeyProblem(line) !== undefined) throw new PveApiError(500, "SSH public key validation error");
  }
}

/**
 * URI::Escape::uri_unescape: each `%XX` becomes its byte; a `%` not followed by two hex digits
 * stays as it is (never an error, unlike decodeURIComponent).
 */
function uriUnescape(text: string): string {
  return text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** qemu-server's create and update: `sshkeys` (URI-encoded, one key per line) is unescaped, then checked. */
export function validateQemuSshKeys(sshkeys: string | undefined): void {
  if (sshkeys !== undefined) validateSshPublicKeys(uriUnescape(sshkeys));
}
