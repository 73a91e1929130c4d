// Where the inventory's warnings go. Ansible shows anything an inventory script writes on
// stderr as an error (script plugin, always_show_stderr), even when the run succeeds, so a
// warning that does not make the inventory wrong (TLS verification off as configured, a
// compose entry skipped for one host, as Ansible itself skips it) is kept out of stderr when
// Ansible runs pvectl: it is in `_meta.pvectl_warnings` instead, which Ansible ignores. On a
// terminal, with --verbose, or with PVECTL_INVENTORY_WARNINGS=stderr it goes to stderr.
// A host without its facts is a partly wrong inventory: that is always said on stderr.
import type { AnsibleInventory } from "../../app/inventory.js";

export class InventoryWarnings {
  private readonly pending: string[] = [];

  constructor(private readonly toStderr: boolean) {}

  add(message: string): void {
    this.pending.push(message);
  }

  /** Hosts kept without their facts: the inventory is incomplete, so stderr whatever the setting. */
  reportFactFailures(inventory: AnsibleInventory, factsPrefix: string): void {
    const failed = Object.entries(inventory._meta.hostvars).filter(([, vars]) => vars[`${factsPrefix}fact_gathering_failed`] === true);
    if (failed.length === 0) return;
    const names = failed.map(([host]) => host);
    process.stderr.write(
      `warning: the facts of ${failed.length} host(s) could not be read (${names.slice(0, 5).join(", ")}${names.length > 5 ? ", ..." : ""}); ` +
        `they are in the inventory with ${factsPrefix}fact_gathering_failed and ${factsPrefix}fact_errors\n`,
    );
  }

  /** The warnings in the output when they do not go to stderr. */
  attach(inventory: AnsibleInventory): void {
    if (this.toStderr || this.pending.length === 0) return;
    (inventory._meta as { pvectl_warnings?: string[] }).pvectl_warnings = [...this.pending];
  }

  /** Writes what is due on stderr; after a failure everything is (the output carries nothing then). */
  flush(failed: boolean): void {
    if (this.toStderr || failed) for (const message of this.pending) process.stderr.write(`warning: ${message}\n`);
    this.pending.length = 0;
  }
}
