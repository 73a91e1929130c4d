// Where `POST /_sim/state/save` may write: the --state file, or a file inside the directory
// given at start (--state-dir). Anyone who can reach the admin API must not be able to make
// the simulator write to a path of their choosing (a shell profile, an authorized_keys file).
import { realpathSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { SimUserError } from "./errors.js";

export interface StateFilePolicy {
  /** The --state file, always allowed. */
  stateFile?: string;
  /** Directory whose files (and existing subdirectories' files) may be saved to. */
  stateDir?: string;
}

export class StateDirError extends SimUserError {
  constructor(
    readonly dir: string,
    readonly reason: string,
  ) {
    super(`simulator state directory ${dir}: ${reason}`);
    this.name = "StateDirError";
  }
  userMessage(): string {
    return `Cannot use ${this.dir} as the simulator's state directory: ${this.reason}. Create the directory or give another --state-dir.`;
  }
}

/** Fails the start when the state directory is not an existing directory. */
export function checkStateDir(dir: string): void {
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch (err) {
    throw new StateDirError(dir, (err as NodeJS.ErrnoException).code === "ENOENT" ? "it does not exist" : String(err));
  }
  if (!isDir) throw new StateDirError(dir, "it is not a directory");
}

/** Inside `dir` (after resolving symlinks of the directories on the way), or undefined. */
function insideDir(dir: string, file: string): string | undefined {
  const target = resolve(dir, file);
  let parent: string;
  let root: string;
  try {
    parent = realpathSync(dirname(target));
    root = realpathSync(dir);
  } catch {
    return undefined;
  }
  const rel = relative(root, parent);
  if (rel.startsWith("..") || isAbsolute(rel)) return undefined;
  return join(parent, basename(target));
}

/**
 * The file a save over HTTP writes, or an Error saying why `requested` is refused. Relative
 * names are taken inside the state directory.
 */
export function stateFileForSave(requested: string | undefined, policy: StateFilePolicy): string | Error {
  const { stateFile, stateDir } = policy;
  if (requested === undefined) {
    return stateFile ?? new Error('no file given and no --state file: pass {"file": "<name>"} (inside --state-dir)');
  }
  if (stateFile && resolve(requested) === resolve(stateFile)) return stateFile;
  const inside = stateDir ? insideDir(stateDir, requested) : undefined;
  if (inside && basename(requested) !== "" && !requested.endsWith("/")) return inside;
  const allowed = [stateFile ? `the --state file ${stateFile}` : "", stateDir ? `a file inside --state-dir ${stateDir}` : ""].filter(
    Boolean,
  );
  return new Error(
    allowed.length
      ? `'${requested}' is not ${allowed.join(" or ")}`
      : `'${requested}' refused: start the simulator with --state FILE or --state-dir DIR to save over HTTP`,
  );
}
