// The qemu kind's section of a spec file (`vms:`), as the guest-kind contract declares it
// (resources/guest-spec-section.ts): the spec loader reads VMs only through this.
import type { GuestSpecSection } from "../guest-spec-section.js";
import type { IssueSink, SpecPath } from "../spec-section/issues.js";
import type { DesiredVm } from "./model.js";
import { desiredVmFromSpec } from "./spec-desired.js";
import { vmKeyMessage } from "./spec-issues.js";
import { describeVm, type VmSpec } from "./spec-model.js";
import { normalizeVm } from "./spec-normalize.js";
import { planValueProblems } from "./spec-plan-values.js";
import { type RawVm, vmSchema } from "./spec-schema.js";

let schema: ReturnType<typeof vmSchema> | undefined;

/** One VM's schema, built once from the PVE facts (the spec file's schema and NetBox templates share it). */
export function vmEntrySchema(): ReturnType<typeof vmSchema> {
  schema ??= vmSchema();
  return schema;
}

/** A sink that also records the paths reported through it (relative to `base`). */
function recording(sink: IssueSink, base: SpecPath, reported: SpecPath[]): IssueSink {
  return {
    add: (path, message, part) => {
      reported.push(path.slice(base.length));
      sink.add(path, message, part);
    },
  };
}

export const vmSection: GuestSpecSection<"vms", VmSpec, DesiredVm> = {
  key: "vms",
  description: "QEMU virtual machines.",
  schema: vmEntrySchema,
  normalize(raw: RawVm, path, source, sink) {
    const reported: SpecPath[] = [];
    const vm = normalizeVm(raw, path, source, recording(sink, path, reported));
    // PVE's checks of the values a plan would send, on every field not reported already.
    for (const problem of planValueProblems(vm, reported)) sink.add([...path, ...problem.path], problem.message);
    return vm;
  },
  nameField: "name",
  describe: describeVm,
  unknownKeyMessage: vmKeyMessage,
  toDesired: desiredVmFromSpec,
};
