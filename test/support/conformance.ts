// Shared by the conformance tests: run Debian's Ansible against a simulator started in-process.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";

export const REPO_ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");

/** Why the conformance clients cannot run here, or undefined when they can. */
export function ansibleMissing(): string | undefined {
  if (!existsSync("/usr/bin/ansible-inventory")) return "Debian's ansible is not installed (apt-get install ansible)";
  if (!existsSync("/usr/lib/python3/dist-packages/proxmoxer")) return "python3-proxmoxer is not installed";
  return undefined;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command without a shell and collects its output (Ansible can be slow to start: generous timeout). */
export function run(command: string, args: string[], env: NodeJS.ProcessEnv, cwd = REPO_ROOT, timeoutMs = 120_000): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

/** Environment for Ansible: the system Python (where Debian's proxmoxer lives) and no user config. */
export function ansibleEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ANSIBLE_PYTHON_INTERPRETER: "/usr/bin/python3",
    ANSIBLE_HOST_KEY_CHECKING: "False",
    ANSIBLE_NOCOLOR: "1",
    ANSIBLE_LOCALHOST_WARNING: "False",
    ANSIBLE_INVENTORY_UNPARSED_WARNING: "False",
    ANSIBLE_DEPRECATION_WARNINGS: "False",
    ANSIBLE_RETRY_FILES_ENABLED: "False",
    ...extra,
  };
}
