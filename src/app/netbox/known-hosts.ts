// Removing a retired guest's entries from an OpenSSH known_hosts file, as `ssh-keygen -R host`
// does for each of its names and addresses: a stale key left behind makes the next guest that
// gets the same address fail host-key checking (or, worse, teaches people to ignore it).
// Hashed entries (`|1|salt|hash`, HashKnownHosts) are matched by hashing each name with the
// entry's salt. `@cert-authority` and `@revoked` lines are trust decisions, not host keys of
// one guest: they are kept. The file is replaced atomically; the old one is kept as PATH.old,
// as ssh-keygen does.
import { createHmac } from "node:crypto";
import { chmod, readFile, rename, stat, writeFile } from "node:fs/promises";

/** Whether one host field (a name, `[name]:port`, or a hashed `|1|salt|hash`) is one of `hosts`. */
function fieldMatches(field: string, hosts: Set<string>): boolean {
  if (field.startsWith("|1|")) {
    const [, , salt, hash] = field.split("|");
    if (salt === undefined || hash === undefined) return false;
    const key = Buffer.from(salt, "base64");
    for (const host of hosts) if (createHmac("sha1", key).update(host).digest("base64") === hash) return true;
    return false;
  }
  return field.split(",").some((name) => hosts.has(name.toLowerCase()));
}

/** The text without the lines naming any of `hosts`, and how many lines went. */
export function removeKnownHosts(text: string, hosts: string[]): { text: string; removed: number } {
  const wanted = new Set(hosts.map((h) => h.toLowerCase()));
  let removed = 0;
  const kept = text.split("\n").filter((line) => {
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#") || trimmed.startsWith("@")) return true;
    const field = trimmed.split(/\s+/)[0] ?? "";
    if (!fieldMatches(field, wanted)) return true;
    removed += 1;
    return false;
  });
  return { text: kept.join("\n"), removed };
}

/**
 * Removes the hosts' entries from the file at `path`; the number of lines removed. A missing
 * file has nothing to remove; the file is rewritten only when something goes.
 */
export async function removeFromKnownHostsFile(path: string, hosts: string[]): Promise<number> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw err;
  }
  const result = removeKnownHosts(text, hosts);
  if (result.removed === 0) return 0;
  const mode = (await stat(path)).mode & 0o777;
  const temp = `${path}.pvectl-${process.pid}`;
  await writeFile(temp, result.text, { mode });
  await chmod(temp, mode);
  await writeFile(`${path}.old`, text, { mode });
  await rename(temp, path);
  return result.removed;
}
