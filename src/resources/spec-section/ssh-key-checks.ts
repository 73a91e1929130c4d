// SSH public keys in a spec (a VM's `cloudInit.sshKeys`, a container's `sshPublicKeys`): PVE runs
// ssh-keygen on every line on create and update (qemu-server and pve-container alike), so a key
// pasted wrong is reported at load, at its place, rather than failing the apply.
import { sshPublicKeyProblem } from "../../pve/ssh-keys.js";
import type { SpecPath } from "./issues.js";
import type { IssueSink } from "./issues.js";

/** Reports each key PVE would refuse; `path` is the list's. */
export function checkSshKeys(keys: readonly string[], path: SpecPath, sink: IssueSink): void {
  keys.forEach((key, i) => {
    const problem = key.includes("\n") ? "holds several lines; give one key per entry" : sshPublicKeyProblem(key);
    if (problem) sink.add([...path, i], `PVE would refuse this key: it ${problem}`);
  });
}
