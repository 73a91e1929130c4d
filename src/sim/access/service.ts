// The simulated cluster's access control in one object: its data, ticket signing, privilege
// evaluation and schema permission checks. Handlers and the request pipeline share it.
import type { AuthIdentity } from "../contract.js";
import { type PoolMembership, PermissionEvaluator, type PrivilegeSet } from "./evaluate.js";
import { SchemaPermissionChecker } from "./schema-check.js";
import type { AccessState } from "./state.js";
import { TicketSigner } from "./tickets.js";

export class AccessControl {
  readonly evaluator: PermissionEvaluator;
  readonly checker: SchemaPermissionChecker;
  readonly signer: TicketSigner;

  constructor(
    public state: AccessState,
    signingKey: string,
    pools: () => PoolMembership | undefined,
  ) {
    this.evaluator = new PermissionEvaluator(() => this.state, pools);
    this.checker = new SchemaPermissionChecker(this.evaluator, () => this.state);
    this.signer = new TicketSigner(signingKey);
  }

  privileges(auth: AuthIdentity, path: string): PrivilegeSet {
    return this.evaluator.privileges(auth, path);
  }

  has(auth: AuthIdentity, path: string, privs: string[], any = false): boolean {
    return this.evaluator.has(auth, path, privs, any);
  }
}
