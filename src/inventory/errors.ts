// The inventory fails loudly: an unreachable API, a refused login or an empty result must
// never look like a successful run against nothing.
import { PvectlError } from "../util/errors.js";

export class InventoryError extends PvectlError {
  readonly kind = "inventory";

  constructor(
    message: string,
    override readonly hint: string,
  ) {
    super(message);
    this.name = "InventoryError";
  }

  override userMessage(): string {
    return `${this.message}\n  hint: ${this.hint}`;
  }
}
