// Errors raised when a PVE-format value (property string, size, UPID, tag list ...) cannot
// be read or written. Each carries the text PVE itself would report (`pveMessage`) so the
// simulator can answer exactly like PVE, plus a message for a person (`userMessage()`).
import { PvectlError } from "../util/errors.js";

export class PveFormatError extends PvectlError {
  /** A malformed value has no `--json` kind of its own. */
  readonly kind = "error";
  /** The kind of value, e.g. "disk size", "UPID", "property string for net0". */
  readonly what: string;
  /** The offending input, as given. */
  readonly input: string;
  /** PVE's own wording of the problem (no trailing newline). */
  readonly pveMessage: string;
  /** What the user can do about it. */
  override readonly hint: string;

  constructor(what: string, input: string, pveMessage: string, hint: string) {
    super(`invalid ${what} '${input}': ${pveMessage}`);
    this.name = "PveFormatError";
    this.what = what;
    this.input = input;
    this.pveMessage = pveMessage;
    this.hint = hint;
  }

  override userMessage(): string {
    return `invalid ${this.what} '${this.input}': ${this.pveMessage.trimEnd().replace(/\n/g, "; ")}. ${this.hint}`;
  }
}
