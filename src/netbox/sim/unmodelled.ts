// Collections NetBox has and the simulator does not model, answered as NetBox answers when it
// holds none: an empty list. Clients that read everything NetBox offers need them (the
// netbox.netbox inventory plugin reads devices, regions, tenants, racks, services ... before it
// builds a single group). They can stay empty because nothing the simulator models refers to
// them: a simulated site has no region or group, a VM no tenant, role or device.
import { HttpError, notFound } from "./errors.js";

/** The filters NetBox's device list takes that a client may reasonably send for VMs too. */
const DEVICE_FILTERS = [
  "id",
  "name",
  "status",
  "site",
  "site_id",
  "tenant",
  "tenant_id",
  "role",
  "role_id",
  "platform",
  "platform_id",
  "cluster_id",
  "serial",
  "tag",
  "q",
];
const GENERIC_FILTERS = ["id", "tag", "q"];

/** Path under /api/ -> the filter names its schema entry lists (the list is empty whatever is sent). */
export const UNMODELLED_COLLECTIONS: ReadonlyMap<string, readonly string[]> = new Map([
  ["dcim/devices", DEVICE_FILTERS],
  ["dcim/interfaces", [...GENERIC_FILTERS, "device_id"]],
  ["dcim/regions", GENERIC_FILTERS],
  ["dcim/site-groups", GENERIC_FILTERS],
  ["dcim/locations", GENERIC_FILTERS],
  ["dcim/racks", GENERIC_FILTERS],
  ["dcim/device-roles", GENERIC_FILTERS],
  ["dcim/device-types", GENERIC_FILTERS],
  ["dcim/manufacturers", GENERIC_FILTERS],
  ["tenancy/tenants", GENERIC_FILTERS],
  ["ipam/services", [...GENERIC_FILTERS, "device_id", "virtual_machine_id"]],
]);

/** A read of an unmodelled collection: an empty page for the list, 404 for any object in it; writes are refused. */
export function unmodelledReply(path: string, method: string, isList: boolean): { status: number; body: unknown } {
  if (method !== "GET" && method !== "HEAD")
    throw new HttpError(405, {
      detail: `Method "${method}" not allowed: the NetBox simulator does not model ${path} (it serves the list, always empty).`,
    });
  if (!isList) throw notFound();
  return { status: 200, body: { count: 0, next: null, previous: null, results: [] } };
}
