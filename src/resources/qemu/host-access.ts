// A VM's keys that reach the hypervisor host (see ../host-access.ts): `args` hands QEMU raw
// command-line options (host files, devices, chardevs), `hookscript` is a script the host runs
// around each start.
import type { ReachesHost } from "../host-access.js";

export const vmReachesHost: ReachesHost = (key, value) => value !== undefined && (key === "args" || key === "hookscript");
