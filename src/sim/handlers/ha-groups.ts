// /cluster/ha/groups on PVE 9: HA groups have been migrated to rules (the simulator never has
// any), so every call is refused with the message PVE 9 gives then. A client tells a PVE 9
// cluster without groups from a PVE 8 one by this answer.
import { PveApiError, type Router } from "../contract.js";

function refuse(what: string) {
  return (): never => {
    throw new PveApiError(500, `cannot ${what}: ha groups have been migrated to rules`);
  };
}

export function registerHaGroupHandlers(router: Router): void {
  router.add("GET", "/cluster/ha/groups", refuse("index groups"));
  router.add("POST", "/cluster/ha/groups", refuse("create group"));
  router.add("GET", "/cluster/ha/groups/{group}", refuse("read group"));
  router.add("PUT", "/cluster/ha/groups/{group}", refuse("update group"));
  router.add("DELETE", "/cluster/ha/groups/{group}", refuse("delete group"));
}
