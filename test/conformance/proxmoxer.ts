// Running a python3-proxmoxer script (Debian's, a client nobody here wrote) against an
// in-process simulator over verified HTTPS. A script takes `host port ca-file root-password`
// and prints one JSON document.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { RunningSimulator } from "../../src/sim/index.js";

const PYTHON = "/usr/bin/python3";
const PROXMOXER = "/usr/lib/python3/dist-packages/proxmoxer/__init__.py";

/** The `skip` option of a describe that needs proxmoxer: why not, or false when it is there. */
export const proxmoxerSkip: string | false =
  !existsSync(PYTHON) || !existsSync(PROXMOXER) ? "python3-proxmoxer is not installed (apt-get install python3-proxmoxer)" : false;

/**
 * What every script starts with: its imports, a root@pam login over the verified connection
 * (`p`), node pve1 (`node`), and `wait(upid)`, which returns the task's exit status.
 */
export const PROXMOXER_PREAMBLE = `import json, sys, time, urllib.parse
from proxmoxer import ProxmoxAPI
host, port, ca, password = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
p = ProxmoxAPI(host, port=port, user="root@pam", password=password, verify_ssl=ca)
node = p.nodes("pve1")
def wait(upid):
    for _ in range(500):
        s = node.tasks(upid).status.get()
        if s["status"] == "stopped":
            return s["exitstatus"]
        time.sleep(0.01)
    return "timeout"
`;

/** Runs `script` against `sim` and parses what it printed. */
export async function runProxmoxerScript(sim: RunningSimulator, script: string, timeoutMs = 60_000) {
  const dir = mkdtempSync(join(tmpdir(), "pvectl-proxmoxer-"));
  try {
    const caFile = join(dir, "ca.pem");
    const scriptFile = join(dir, "script.py");
    writeFileSync(caFile, sim.ca as string);
    writeFileSync(scriptFile, script);
    // Asynchronous on purpose: the simulator runs in this process and must keep answering.
    const { stdout } = await promisify(execFile)(PYTHON, [scriptFile, "127.0.0.1", String(sim.port), caFile, sim.rootPassword], {
      encoding: "utf8",
      timeout: timeoutMs,
    });
    return JSON.parse(stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
