// What the qemu kind's spec section (`vms:`, declared in kind.ts) is read with beyond the
// folder's other spec files: one entry's schema, built once, and its normalisation together
// with the value checks.
import type { IssueSink, SourceLocation, SpecPath } from "../spec-section/issues.js";
import type { VmSpec } from "./spec-model.js";
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

/** One `vms:` entry as its schema accepted it -> VmSpec, with PVE's checks of the values a plan would send. */
export function normalizeVmEntry(raw: RawVm, path: SpecPath, source: SourceLocation, sink: IssueSink): VmSpec {
  const reported: SpecPath[] = [];
  const vm = normalizeVm(raw, path, source, recording(sink, path, reported));
  // Every field not reported already is checked as PVE would check what the plan sends.
  for (const problem of planValueProblems(vm, reported)) sink.add([...path, ...problem.path], problem.message);
  return vm;
}
