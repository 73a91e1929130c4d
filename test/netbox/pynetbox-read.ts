// Reading NetBox back with python3-pynetbox (a client nobody here wrote): what pvectl wrote is
// checked as NetBox's own clients see it. Asynchronous, so the in-process simulator keeps
// answering while Python asks.
import { execFile } from "node:child_process";
import { promisify } from "node:util";

/** Evaluates a Python expression with `nb` (a pynetbox API) in scope; its value as JSON. */
export async function pynetboxRead(nb: { url: string; token: string }, expression: string): Promise<unknown> {
  const script = [
    "import json, sys, pynetbox",
    "nb = pynetbox.api(sys.argv[1], token=sys.argv[2])",
    `print(json.dumps(${expression}))`,
  ].join("\n");
  const { stdout } = await promisify(execFile)("/usr/bin/python3", ["-c", script, nb.url, nb.token]);
  return JSON.parse(stdout) as unknown;
}
