// Where a secret PVE shows only once goes (a new API token's value). The file is created
// before the call, exclusively and with mode 0600: an existing file is never overwritten, and
// every reason the secret could not be stored (no directory, no permission, a file already
// there) shows before the token exists, instead of after PVE handed out a secret nobody keeps.
// If the answer is then lost, nobody has the secret: the caller removes the object it made.

import type { FileHandle } from "node:fs/promises";
import { open, unlink } from "node:fs/promises";
import type { SecretSink } from "../plan/types.js";

/** Prints a secret once (`--show-secret`): the CLI writes it to the terminal, nothing else sees it. */
export type SecretPrinter = (label: string, secret: string) => void;

export class SecretSinkError extends Error {}

export interface OpenSink {
  deliver(secret: string): Promise<void>;
  /** Nothing was delivered: the empty file goes away again. */
  abandon(): Promise<void>;
}

async function openFile(path: string): Promise<FileHandle> {
  try {
    return await open(path, "wx", 0o600);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EEXIST") throw new SecretSinkError(`secretFile ${path} already exists: pvectl never overwrites a file (it may hold another token's secret); move it away or name another file`);
    if (code === "ENOENT") throw new SecretSinkError(`secretFile ${path}: its directory does not exist; create it (mode 0700 recommended) and apply again`);
    throw new SecretSinkError(`secretFile ${path} cannot be created: ${(err as Error).message}`);
  }
}

export async function openSink(sink: SecretSink, label: string, print: SecretPrinter | undefined): Promise<OpenSink> {
  if ("print" in sink) {
    if (!print) throw new SecretSinkError(`the secret of ${label} is to be printed (--show-secret), but this apply has no terminal to print it on`);
    return { deliver: async (secret) => print(label, secret), abandon: async () => undefined };
  }
  const handle = await openFile(sink.file);
  return {
    deliver: async (secret) => {
      await handle.writeFile(`${secret}\n`);
      await handle.sync();
      await handle.close();
    },
    abandon: async () => {
      await handle.close().catch(() => undefined);
      await unlink(sink.file).catch(() => undefined);
    },
  };
}
