// The lxc kind's section of a spec file (`containers:`), as the guest-kind contract declares it
// (resources/guest-spec-section.ts): the spec loader reads containers only through this.
import type { GuestSpecSection } from "../guest-spec-section.js";
import type { DesiredCt } from "./model.js";
import { desiredCtFromSpec } from "./spec-desired.js";
import { ctKeyMessage } from "./spec-issues.js";
import { type ContainerSpec, describeCt } from "./spec-model.js";
import { normalizeCt } from "./spec-normalize.js";
import { ctSchema, type RawCt } from "./spec-schema.js";

let schema: ReturnType<typeof ctSchema> | undefined;

/** One container's schema, built once from the PVE facts (the spec file's schema and NetBox templates share it). */
export function ctEntrySchema(): ReturnType<typeof ctSchema> {
  schema ??= ctSchema();
  return schema;
}

export const ctSection: GuestSpecSection<"containers", ContainerSpec, DesiredCt> = {
  key: "containers",
  description: "LXC containers.",
  schema: ctEntrySchema,
  normalize: (raw: RawCt, path, source, sink) => normalizeCt(raw, path, source, sink),
  nameField: "hostname",
  describe: describeCt,
  unknownKeyMessage: ctKeyMessage,
  toDesired: desiredCtFromSpec,
};
