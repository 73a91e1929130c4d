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
