// The inventory fails loudly: an unreachable API, a refused login or an empty result must
// never look like a successful run against nothing.
export class InventoryError extends Error {
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
    this.name = "InventoryError";
  }

  userMessage(): string {
    return `${this.message}\n  hint: ${this.hint}`;
  }
}
