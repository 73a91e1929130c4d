// The simulator's handler table: (method, schema path template) -> handler. Both halves of the
// simulator register here through the contract's Router interface.
import type { HttpMethod } from "../../schema/types.js";
import type { Handler, Router } from "../contract.js";

export class SimRouter implements Router {
  private readonly handlers = new Map<string, Handler>();

  add(method: HttpMethod, template: string, handler: Handler): void {
    this.handlers.set(`${method} ${template}`, handler);
  }

  get(method: HttpMethod, template: string): Handler | undefined {
    return this.handlers.get(`${method} ${template}`);
  }

  /** "METHOD /template" of every registered handler (for docs and coverage reports). */
  registered(): string[] {
    return [...this.handlers.keys()].sort();
  }
}
