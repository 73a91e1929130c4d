// What each API token's secretFile holds, read when planning: the planner resets the secret of
// a token that exists while its file holds none (resources/access/token-reset.ts), refuses a
// create over a file that holds something, and leaves alone a token whose file it cannot judge.
// Only the first bytes are read: a token secret is a UUID and a newline.
import { lstat, open } from "node:fs/promises";
import { secretFileHolds } from "../pve/index.js";
import { type DesiredObjects, type SecretFileState, secretFilesOf } from "../resources/objects.js";

/** More than any secret file pvectl writes: a file this long holds something else. */
const READ_LIMIT = 256;

async function headOf(path: string): Promise<string> {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(READ_LIMIT);
    const { bytesRead } = await handle.read(buffer, 0, READ_LIMIT, 0);
    return buffer.subarray(0, bytesRead).toString("utf8");
  } finally {
    await handle.close();
  }
}

export async function readSecretFileState(path: string): Promise<SecretFileState> {
  const info = await lstat(path).catch((err: NodeJS.ErrnoException) => (err.code === "ENOENT" ? null : err));
  if (info === null) return { holds: "nothing", why: "is missing" };
  if (info instanceof Error) return { holds: "unknown", why: `cannot be read (${info.message})` };
  if (info.isSymbolicLink()) return { holds: "unknown", why: "is a symbolic link (pvectl writes a secret only to a file of its own)" };
  if (!info.isFile()) return { holds: "unknown", why: "is not a regular file" };
  const text = await headOf(path).catch((err: Error) => err);
  if (text instanceof Error) return { holds: "unknown", why: `cannot be read (${text.message})` };
  if (info.size > READ_LIMIT) return { holds: "unknown", why: "holds more than a token secret" };
  switch (secretFileHolds(text)) {
    case "secret":
      return { holds: "secret" };
    case "nothing":
      return { holds: "nothing", why: text.trim() === "" ? "is empty" : "holds only the start of a secret (its write was cut off)" };
    case "other":
      return { holds: "unknown", why: "holds something that is not a PVE token secret" };
  }
}

/** The state of every secret file the spec's objects name (a token's secretFile), by path. */
export async function secretFileStates(desired: DesiredObjects): Promise<Map<string, SecretFileState>> {
  const states = new Map<string, SecretFileState>();
  for (const file of secretFilesOf(desired)) {
    if (!states.has(file)) states.set(file, await readSecretFileState(file));
  }
  return states;
}
