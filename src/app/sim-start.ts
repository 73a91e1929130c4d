// Starting the simulators (`pvectl sim`, the demo, tests and anyone's CI): the PVE API simulator,
// optionally the NetBox API simulator with its demo records beside it, and the CA certificate
// written where the caller's clients will look for it. When a step fails, what already started
// is stopped again: nothing is left listening.
import { writeFileSync } from "node:fs";
import { type NetboxSimulator, startNetboxSimulator } from "./netbox/simulator.js";
import { type RunningSimulator, type SimulatorOptions, startSimulator } from "../sim/index.js";
import { PvectlError } from "../util/errors.js";

export { type NetboxSimulator, type RunningSimulator, type SimulatorOptions, startNetboxSimulator, startSimulator };

/** A `pvectl sim` flag whose value cannot work: which flag, why, and what to give instead. */
export class SimFlagError extends PvectlError {
  readonly kind = "usage";

  constructor(
    readonly flag: string,
    readonly reason: string,
    override readonly hint: string,
  ) {
    super(`${flag}: ${reason}`);
    this.name = "SimFlagError";
  }
  override userMessage(): string {
    return `pvectl sim ${this.flag}: ${this.reason}. ${this.hint}`;
  }
}

export interface SimulatorsOptions {
  pve: SimulatorOptions;
  /** Also a NetBox API simulator with the demo records, on this interface and port (0: a free one). */
  netbox?: { host: string; port: number };
  /** Where to write the CA certificate the PVE simulator's clients should trust (PEM). */
  caFile?: string;
}

export interface RunningSimulators {
  sim: RunningSimulator;
  netbox?: NetboxSimulator;
  /** Stops both (NetBox first: it is the PVE simulator's client in a demo). */
  close(): Promise<void>;
}

export async function startSimulators(options: SimulatorsOptions): Promise<RunningSimulators> {
  const sim = await startSimulator(options.pve);
  const netbox = options.netbox ? await startNetboxSimulator({ ...options.netbox, seed: "demo" }) : undefined;
  const close = async () => {
    await netbox?.close();
    await sim.close();
  };
  if (options.caFile) {
    if (!sim.ca) {
      await close();
      throw new SimFlagError("--ca-file", "there is no certificate with --http", "Drop --http or --ca-file.");
    }
    try {
      writeFileSync(options.caFile, sim.ca);
    } catch (err) {
      await close();
      throw new SimFlagError(
        "--ca-file",
        `cannot write ${options.caFile} (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
        "Give a writable path.",
      );
    }
  }
  return { sim, ...(netbox ? { netbox } : {}), close };
}
