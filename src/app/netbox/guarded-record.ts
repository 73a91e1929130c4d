// Writes to the NetBox record of a guest this run builds, made only while the record still asks
// for what was built. Each PATCH of the virtual machine carries the ETag of the record as pvectl
// last read it (If-Match, NetBox >= 4.6). A 412 means someone wrote to the record meanwhile:
// pvectl reads it again (with its interfaces and disks), compares what the build used
// (record-inputs.ts) with the record as selected, and lets the write decide: write again with
// the new ETag (an edit of a field the build did not use, such as comments), or not at all (the
// status is never set over an edit). Without ETags (NetBox < 4.6) the record is read again right
// before each write instead, which leaves a window of one request. A write whose answer was lost
// is resolved by reading the record back, never by sending it again.
import type { NetboxClient, ReadOf, WriteOf } from "../../netbox/client.js";
import { NetboxConnectionError, NetboxError } from "../../netbox/errors.js";
import type { NetboxConfig } from "../../sources/netbox/config.js";
import { type InputChange, inputChanges, type RecordInputs, recordInputs } from "../../sources/netbox/record-inputs.js";
import { attachChildren, describeRecord, type NetboxVmRecord } from "../../sources/netbox/records.js";

const VMS = "virtualization/virtual-machines";
type Vm = ReadOf<typeof VMS>;

/** How often a write is tried again after a 412 that changed nothing the build used, before it fails. */
const MAX_ATTEMPTS = 5;

export interface RecordWrite {
  body: Partial<WriteOf<typeof VMS>>;
  /** Whether the record as read already says what the write would (an earlier run wrote it; a lost answer was applied). */
  done(vm: Vm): boolean;
  /** Whether to write, given the record as read and what changed in it since it was selected. */
  allowed(vm: Vm, changes: InputChange[]): boolean;
  /** The input the write sets (record-inputs.ts), so pvectl's own write is not taken for someone's edit. */
  sets?: { field: string; value: string };
}

export interface WriteResult {
  /** withheld: `allowed` said no (the record is left as it is). */
  result: "written" | "already" | "withheld";
  /** The record as it is after the write (or as read, when nothing was written). */
  vm: Vm;
}

export class GuardedRecord {
  private readonly selected: RecordInputs;
  /** Inputs pvectl itself wrote in this run (the vmid): expected, not edits. */
  private readonly own: Record<string, string> = {};
  private current: NetboxVmRecord | undefined;
  private etag: string | undefined;

  constructor(
    private readonly netbox: NetboxClient,
    private readonly config: NetboxConfig,
    private readonly record: NetboxVmRecord,
  ) {
    this.selected = recordInputs(record, config);
  }

  /** What changed, in the fields the build used, between the record as selected and as last read (read once first). */
  async changes(): Promise<InputChange[]> {
    return this.changesOf(this.current ?? (await this.read()));
  }

  /** The record as last read (read once first). */
  async latest(): Promise<Vm> {
    return (this.current ?? (await this.read())).vm;
  }

  async write(w: RecordWrite): Promise<WriteResult> {
    const id = this.record.vm.id;
    const subject = describeRecord(this.record.vm);
    let stale: unknown;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      // Without an ETag nothing guards the write but a fresh read right before it.
      const current = this.current !== undefined && this.etag !== undefined ? this.current : await this.read();
      if (w.done(current.vm)) return this.wrote(w, "already", current.vm);
      if (!w.allowed(current.vm, this.changesOf(current))) return { result: "withheld", vm: current.vm };
      try {
        const { object, etag } = await this.netbox.patchWithEtag(VMS, id, w.body, {
          ...(this.etag !== undefined ? { ifMatch: this.etag } : {}),
          subject,
        });
        this.current = { ...current, vm: object };
        this.etag = etag;
        return this.wrote(w, "written", object);
      } catch (err) {
        if (err instanceof NetboxError && err.status === 412) {
          // Not applied: someone wrote to the record since it was read. Read it again and decide again.
          stale = err;
          this.current = undefined;
          continue;
        }
        if (!isLostAnswer(err)) throw err;
        // Applied or not, only NetBox knows: read it back rather than send it again.
        const back = await this.read();
        if (w.done(back.vm)) return this.wrote(w, "written", back.vm);
        throw err;
      }
    }
    throw stale;
  }

  private wrote(w: RecordWrite, result: "written" | "already", vm: Vm): WriteResult {
    if (w.sets) this.own[w.sets.field] = w.sets.value;
    return { result, vm };
  }

  private changesOf(current: NetboxVmRecord): InputChange[] {
    return inputChanges({ ...this.selected, ...this.own }, recordInputs(current, this.config));
  }

  private async read(): Promise<NetboxVmRecord> {
    const { object, etag } = await this.netbox.getWithEtag(VMS, this.record.vm.id);
    const [current] = await attachChildren(this.netbox, [object]);
    this.current = current!;
    this.etag = etag;
    return this.current;
  }
}

/** No answer, or one that does not say whether the write was applied (a proxy's 502, a timeout ...). */
function isLostAnswer(err: unknown): boolean {
  return err instanceof NetboxConnectionError || (err instanceof NetboxError && err.status >= 500);
}
