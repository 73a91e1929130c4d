// One run at a time per NetBox record, across every pvectl instance that works on the same
// NetBox (two `netbox serve`, serve and a timer sync, two operators). Without it two runs
// both allocated an address for the same record and both built or converged its guest, and
// NetBox's primary IP could end up another address than the one the guest was built with.
//
// The lock lives in NetBox itself, so every instance sees it and it needs no setup: a claim is
// a journal entry on the record, `pvectl claim <run> until <time>`. A run creates its claims,
// then reads every claim on those records; of the claims not yet expired, the oldest (lowest
// id) holds the record. A run that does not hold a record deletes its own claim and leaves the
// record alone (reported as busy: the holder is building it). The holder deletes its claims
// when it is done; a run that crashed leaves them, and they stop counting once their time has
// passed (`claimExpiry`, 1 h by default: longer than any run should take), or at once when
// the run was on this host and its process is gone.
//
// Journal entries rather than a custom field written with If-Match: they need no custom field
// in NetBox and no NetBox 4.6 (ETag), and creating one cannot lose a race; only its order
// (NetBox's ids) decides.
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { NetboxClient } from "../../netbox/client.js";
import { NetboxError } from "../../netbox/errors.js";
import type { JournalEntry } from "../../netbox/generated/types.js";

const VM = "virtualization.virtualmachine";
const CLAIM = /^pvectl claim (\S+) until (\S+)$/;
const ID_CHUNK = 100;

interface Claim {
  entryId: number;
  recordId: number;
  owner: string;
  until: number;
}

function parseClaim(entry: JournalEntry): Claim | undefined {
  const m = CLAIM.exec(entry.comments.trim());
  const until = m ? Date.parse(m[2]!) : Number.NaN;
  return m && !Number.isNaN(until) ? { entryId: entry.id, recordId: entry.assigned_object_id, owner: m[1]!, until } : undefined;
}

const HOST = hostname().replace(/\s+/g, "-");

/** A run's name in its claims: where it runs, its process, and a random part (one process runs many syncs). */
export function runName(): string {
  return `${HOST}:${process.pid}:${randomBytes(4).toString("hex")}`;
}

/** A claim of a run on this host whose process is gone (killed, crashed): it ends now, not at its expiry. */
function deadLocalRun(owner: string): boolean {
  const [host, pid] = owner.split(":");
  if (host !== HOST || !/^\d+$/.test(pid ?? "")) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ESRCH";
  }
}

export class RecordClaims {
  /** record id -> the journal entry of this run's claim on it. */
  private readonly held = new Map<number, number>();

  constructor(
    private readonly netbox: NetboxClient,
    private readonly expiryMs: number,
    readonly owner: string = runName(),
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Claims the records; returns those another run holds, each with who holds it and until
   * when. The others are this run's until release().
   */
  async claim(recordIds: number[]): Promise<Map<number, string>> {
    const until = new Date(this.now() + this.expiryMs).toISOString();
    const comments = `pvectl claim ${this.owner} until ${until}`;
    for (let i = 0; i < recordIds.length; i += ID_CHUNK) {
      const body = recordIds
        .slice(i, i + ID_CHUNK)
        .map((id) => ({ assigned_object_type: VM, assigned_object_id: id, kind: "info" as const, comments }));
      const created = (
        await this.netbox.request<JournalEntry[]>("POST", "extras/journal-entries/", {
          body,
          subject: "pvectl's claims on the records of this run",
        })
      ).body;
      for (const entry of created) this.held.set(entry.assigned_object_id, entry.id);
    }
    const busy = new Map<number, string>();
    for (const [recordId, holder] of await this.holders(recordIds)) {
      if (holder.owner === this.owner) continue;
      busy.set(
        recordId,
        `another pvectl run (${holder.owner}) is working on it; its claim holds until ${new Date(holder.until).toISOString()} unless it finishes first`,
      );
      await this.drop(recordId);
    }
    return busy;
  }

  /** The claim holding each record: the oldest of those not expired. Expired ones are cleared on the way. */
  private async holders(recordIds: number[]): Promise<Map<number, Claim>> {
    const out = new Map<number, Claim>();
    for (let i = 0; i < recordIds.length; i += ID_CHUNK) {
      const entries = await this.netbox.list("extras/journal-entries", {
        assigned_object_type: VM,
        assigned_object_id: recordIds.slice(i, i + ID_CHUNK),
        q: "pvectl claim",
      });
      const claims = entries
        .map(parseClaim)
        .filter((c): c is Claim => c !== undefined)
        .sort((a, b) => a.entryId - b.entryId);
      for (const claim of claims) {
        if (claim.until <= this.now() || (claim.owner !== this.owner && deadLocalRun(claim.owner))) {
          if (claim.owner !== this.owner) await this.deleteEntry(claim.entryId);
          continue;
        }
        if (!out.has(claim.recordId)) out.set(claim.recordId, claim);
      }
    }
    return out;
  }

  private async drop(recordId: number): Promise<void> {
    const entryId = this.held.get(recordId);
    this.held.delete(recordId);
    if (entryId !== undefined) await this.deleteEntry(entryId);
  }

  /** Gone already (a run that cleared it as expired) is as good as deleted. */
  private async deleteEntry(entryId: number): Promise<void> {
    try {
      await this.netbox.delete("extras/journal-entries", entryId, "a pvectl claim");
    } catch (err) {
      if (!(err instanceof NetboxError && err.status === 404)) throw err;
    }
  }

  /** Ends every claim this run holds. A claim that cannot be deleted now ends when it expires. */
  async release(): Promise<void> {
    for (const recordId of [...this.held.keys()]) {
      try {
        await this.drop(recordId);
      } catch {
        // Expiry is the safety net for a claim left behind.
      }
    }
  }
}
