// Fault injection for the admin API: request faults (an error status and message, extra
// latency, a dropped connection, or an answer lost after the request was handled) on requests
// matching a method and a path regex, and task
// faults (matching tasks fail with a message). Rules can be limited to a number of hits and
// to a probability, drawn from the simulator's seeded generator so runs repeat.
import type { SeededRandom } from "../random.js";

export interface RequestFaultSpec {
  /** Only this HTTP method (any when omitted). */
  method?: string;
  /** Regular expression tested against the path below /api2/json (e.g. "^/nodes/[^/]+/qemu$"). */
  path?: string;
  /** Respond with this status instead of handling the request... */
  status?: number;
  /** ...and this message (reason phrase and `message`); default "simulated failure". */
  message?: string;
  /** Delay the response by this many milliseconds (combined with status, or alone). */
  latencyMs?: number;
  /** Close the connection without any response (the request is not handled). */
  drop?: boolean;
  /**
   * Handle the request (its tasks start and run), then close the connection instead of
   * answering: the client cannot tell whether its write happened.
   */
  dropResponse?: boolean;
  /** Handle the request, then hold its answer back this many milliseconds (past a client's timeout). */
  responseDelayMs?: number;
  /** Apply to this many matching requests, then expire (unlimited when omitted). */
  times?: number;
  /** Apply with this probability (0..1, seeded); default 1. */
  probability?: number;
}

export interface TaskFaultSpec {
  /** Worker type, e.g. "qmstart" (any when omitted). */
  type?: string;
  /** Only tasks of this guest (the UPID's id field); any when omitted. */
  vmid?: number | string;
  node?: string;
  /** Exit status the task fails with; default "simulated task failure". */
  message?: string;
  times?: number;
}

export interface RequestFault extends RequestFaultSpec {
  id: number;
  hits: number;
}

export interface TaskFault extends TaskFaultSpec {
  id: number;
  hits: number;
}

/** What happens to the answer of a handled request: sent (after a delay, maybe) or lost. */
export type AnswerFate = { kind: "send"; delayMs: number } | { kind: "lose" };

export function answerFate(fault: RequestFaultSpec | undefined): AnswerFate {
  if (fault?.dropResponse) return { kind: "lose" };
  return { kind: "send", delayMs: fault?.responseDelayMs ?? 0 };
}

/** The lost-answer fields, checked here (they come from the admin API's JSON too). */
function checkAnswerFate(spec: RequestFaultSpec): void {
  if (spec.dropResponse !== undefined && typeof spec.dropResponse !== "boolean") throw new Error("dropResponse must be true or false");
  const delay = spec.responseDelayMs;
  if (delay !== undefined && (typeof delay !== "number" || !Number.isFinite(delay) || delay < 0 || delay > 3_600_000)) {
    throw new Error("responseDelayMs must be a number of milliseconds from 0 to 3600000");
  }
}

export class FaultRegistry {
  private nextId = 1;
  requestFaults: RequestFault[] = [];
  taskFaults: TaskFault[] = [];

  constructor(private readonly random: SeededRandom) {}

  addRequestFault(spec: RequestFaultSpec): RequestFault {
    if (spec.path !== undefined) new RegExp(spec.path);
    checkAnswerFate(spec);
    const fault: RequestFault = { ...spec, id: this.nextId++, hits: 0 };
    this.requestFaults.push(fault);
    return fault;
  }

  addTaskFault(spec: TaskFaultSpec): TaskFault {
    const fault: TaskFault = { ...spec, id: this.nextId++, hits: 0 };
    this.taskFaults.push(fault);
    return fault;
  }

  remove(id: number): boolean {
    const before = this.requestFaults.length + this.taskFaults.length;
    this.requestFaults = this.requestFaults.filter((f) => f.id !== id);
    this.taskFaults = this.taskFaults.filter((f) => f.id !== id);
    return this.requestFaults.length + this.taskFaults.length < before;
  }

  clear(): void {
    this.requestFaults = [];
    this.taskFaults = [];
  }

  /** The first active request fault matching this request (and counts the hit). */
  matchRequest(method: string, path: string): RequestFault | undefined {
    for (const f of this.requestFaults) {
      if (f.times !== undefined && f.hits >= f.times) continue;
      if (f.method && f.method.toUpperCase() !== method) continue;
      if (f.path !== undefined && !new RegExp(f.path).test(path)) continue;
      if (f.probability !== undefined && this.random.next() >= f.probability) continue;
      f.hits++;
      return f;
    }
    return undefined;
  }

  /** The failure message for a starting task, if a task fault matches (and counts the hit). */
  matchTask(task: { type: string; id: string; node: string }): string | undefined {
    for (const f of this.taskFaults) {
      if (f.times !== undefined && f.hits >= f.times) continue;
      if (f.type && f.type !== task.type) continue;
      if (f.vmid !== undefined && String(f.vmid) !== task.id) continue;
      if (f.node && f.node !== task.node) continue;
      f.hits++;
      return f.message ?? "simulated task failure";
    }
    return undefined;
  }
}
