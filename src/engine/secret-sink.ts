// Where a secret PVE shows only once goes (a new API token's value). The file is opened
// before the call, with mode 0600: created exclusively, or, when it exists, used only while it
// holds nothing (empty: left by a run killed between a token's create and the write, whose
// token the plan resets); a file holding anything is never overwritten. Every reason the
// secret could not be stored (no directory, no permission, a file holding something) shows
// before the token exists, instead of after PVE handed out a secret nobody keeps. The secret
// is written and fsynced (the directory too, for a new file) as soon as the answer is read,
// before anything else of the apply runs. If the answer is then lost, nobody has the secret:
// the caller removes the object it made.

import { constants, type FileHandle, open, unlink } from "node:fs/promises";
import { dirname } from "node:path";
import type { SecretSink } from "../plan/types.js";
import { secretFileHolds } from "../pve/index.js";

/** Prints a secret once (`--show-secret`): the CLI writes it to the terminal, nothing else sees it. */
export type SecretPrinter = (label: string, secret: string) => void;

export class SecretSinkError extends Error {}

export interface OpenSink {
  deliver(secret: string): Promise<void>;
  /** Nothing was delivered: a file made for it goes away again, one that was there is left empty. */
  abandon(): Promise<void>;
}

/** More than any secret file pvectl writes. */
const HEAD = 256;

const neverOverwrites = (path: string, what: string) =>
  new SecretSinkError(
    `secretFile ${path} already exists and ${what}: pvectl never overwrites a file (it may hold another token's secret); move it away or name another file`,
  );

/** An existing file, opened for the secret only while it holds nothing (not through a symlink). */
async function reuseEmpty(path: string): Promise<FileHandle> {
  const handle = await open(path, constants.O_RDWR | constants.O_NOFOLLOW).catch((err: Error) => {
    throw new SecretSinkError(`secretFile ${path} exists and cannot be opened for writing: ${err.message}`);
  });
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw neverOverwrites(path, "is not a regular file");
    const head = Buffer.alloc(HEAD);
    const { bytesRead } = await handle.read(head, 0, HEAD, 0);
    if (info.size > HEAD || secretFileHolds(head.subarray(0, bytesRead).toString("utf8")) !== "nothing")
      throw neverOverwrites(path, "holds something");
    await handle.chmod(0o600);
    return handle;
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err;
  }
}

async function openFile(path: string): Promise<{ handle: FileHandle; created: boolean }> {
  try {
    return { handle: await open(path, "wx", 0o600), created: true };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return { handle: await reuseEmpty(path), created: false };
    if (code === "ENOENT")
      throw new SecretSinkError(`secretFile ${path}: its directory does not exist; create it (mode 0700 recommended) and apply again`);
    throw new SecretSinkError(`secretFile ${path} cannot be created: ${(err as Error).message}`);
  }
}

/** A new file's name in its directory outlives a crash only once the directory is synced. */
async function syncDirectory(path: string): Promise<void> {
  const dir = await open(dirname(path), "r").catch(() => undefined);
  // A file system that cannot sync a directory still has the secret itself on disk.
  await dir?.sync().catch(() => undefined);
  await dir?.close().catch(() => undefined);
}

export async function openSink(sink: SecretSink, label: string, print: SecretPrinter | undefined): Promise<OpenSink> {
  if ("print" in sink) {
    if (!print)
      throw new SecretSinkError(`the secret of ${label} is to be printed (--show-secret), but this apply has no terminal to print it on`);
    return { deliver: async (secret) => print(label, secret), abandon: async () => undefined };
  }
  const { handle, created } = await openFile(sink.file);
  let delivered = false;
  return {
    deliver: async (secret) => {
      await handle.truncate(0);
      await handle.write(`${secret}\n`, 0);
      await handle.sync();
      delivered = true;
      // On disk now: a failing close takes nothing away.
      await handle.close().catch(() => undefined);
      if (created) await syncDirectory(sink.file);
    },
    abandon: async () => {
      // A delivered secret belongs to a token that exists: it is never taken back.
      if (delivered) return;
      if (created) {
        await handle.close().catch(() => undefined);
        await unlink(sink.file).catch(() => undefined);
        return;
      }
      await handle.truncate(0).catch(() => undefined);
      await handle.close().catch(() => undefined);
    },
  };
}
