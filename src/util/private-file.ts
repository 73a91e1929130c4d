// Files that may hold what the cluster looks like (saved plans, the inventory cache) are
// readable by their owner only: 0600 when created, and an existing file is tightened to 0600
// before anything is written into it, so the content is never visible under a looser mode.
import { open } from "node:fs/promises";

export const PRIVATE_FILE_MODE = 0o600;

export async function writePrivateFile(path: string, text: string): Promise<void> {
  const handle = await open(path, "w", PRIVATE_FILE_MODE);
  try {
    await handle.chmod(PRIVATE_FILE_MODE);
    await handle.writeFile(text, "utf8");
  } finally {
    await handle.close();
  }
}
