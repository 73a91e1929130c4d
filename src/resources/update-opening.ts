// How every kind opens the plan of a guest that exists, before its own keys and devices are
// compared: what it notes of the live guest (lock, detached volumes, the template it is or is to
// be, HA), and the steps that come first (adoption, pool, a stop that was asked for or that a
// template conversion needs, then the migration to the spec's node and the placement record:
// resources/placement.ts decides). Kind-neutral: each kind passes its calls, noun and migration facts.
import type { StepDraft } from "../plan/types.js";
import { adoptStep, type GuestStepCalls as PowerStepCalls, stopStep } from "./guest-steps.js";
import { type HaState, haManaged, type PowerState, type UpdateOptions } from "./kind.js";
import { type MigrateCall, type MigrationFacts, migrateStep, recordPlacementStep } from "./migrate-step.js";
import { decidePlacement, type PlacementDecision } from "./placement.js";
import { placementRecord } from "./placement-record.js";
import { OWNERSHIP_TAG } from "./ownership.js";
import { unusedRemoval } from "./unused-removal.js";
import { poolDrafts } from "./pool-steps.js";
import { converts, liveTemplateErrors, templateWishErrors } from "./template.js";

interface DesiredLike {
  node: string;
  pool?: string | undefined;
  power?: PowerState | undefined;
  template?: boolean | undefined;
}

interface LiveLike {
  vmid: number;
  node: string;
  name?: string;
  tags: string[];
  status: PowerState;
  lock?: string;
  template: boolean;
  unused: Record<string, string>;
  pool?: string | undefined;
  ha?: HaState | undefined;
}

/** The kind's calls the opening steps make. */
export interface GuestStepCalls extends PowerStepCalls {
  migrate: MigrateCall;
}

/** A guest found away from its spec's node that pvectl leaves there (`--follow-placement` lists them). */
export interface MovedGuest {
  specNode: string;
  liveNode: string;
}

export interface UpdateOpening {
  errors: string[];
  warnings: string[];
  drafts: StepDraft[];
  /** The guest takes the ownership tag in this plan. */
  adopting: boolean;
  /** Whether the guest still runs once the opening steps ran (the rest of the plan applies to that state). */
  running: boolean;
  /** The plan converts the guest to a template (its last step). */
  converting: boolean;
  /** The node every later step of the guest runs on: the spec's, when the opening migrates it. */
  node: string;
  /** The guest's tags once the opening steps ran (adopted, placement recorded): later tag writes start from them. */
  tags: string[];
  /** HA manages the guest: no power call of any later step either (a reboot is left to the operator). */
  ha?: HaState;
  /** Someone else moved the guest and pvectl leaves it there. */
  moved?: MovedGuest;
}

/** The requested HA state that matches a power state (`ha-manager set --state`). */
function haStateFor(power: PowerState): string {
  return power === "running" ? "started" : "stopped";
}

function haNames(ha: HaState): string {
  return `HA manages it as ${ha.sid} (requested state: ${ha.state})`;
}

/** What HA owns and the spec would change: power (start, stop, the stop a template conversion needs). */
function haPowerErrors(desired: DesiredLike, live: LiveLike, ha: HaState, converting: boolean, noun: string): string[] {
  const wanted = desired.power !== undefined && desired.power !== live.status ? desired.power : undefined;
  if (wanted !== undefined) {
    return [
      `${haNames(ha)}, which owns its power: pvectl does not start or stop an HA resource. The spec wants the ${noun} ${wanted}, it is ${live.status}: ` +
        `change the HA resource's state (ha-manager set ${ha.sid} --state ${haStateFor(wanted)}), or drop power: from the spec`,
    ];
  }
  if (converting && live.status === "running") {
    return [
      `${haNames(ha)}, which owns its power: converting it to a template needs it stopped, which pvectl does not do to an HA resource; ` +
        `stop it through HA (ha-manager set ${ha.sid} --state stopped) first, or drop template: true`,
    ];
  }
  return [];
}

function movedWarning(decision: Extract<PlacementDecision, { kind: "moved-elsewhere" }>, live: LiveLike, spec: string): string {
  const where = `runs on ${live.node}, the spec says ${spec}`;
  if (haManaged(live.ha)) {
    return `${where}: ${haNames(live.ha)}, which owns its placement (moved by HA or through it); pvectl does not move it back and changes it on ${live.node}`;
  }
  if (decision.recorded) {
    return (
      `${where}, where pvectl placed it: someone else moved it (HA, an operator); pvectl does not move it back and changes it on ${live.node}. ` +
      `To keep it there, set node: ${live.node} in the spec (--follow-placement lists such guests); to move it back, run with --placement spec`
    );
  }
  return (
    `${where}, and pvectl has no placement record for it (created before pvectl recorded placement, or by hand): pvectl does not move it and changes it on ${live.node}. ` +
    `Set node: ${live.node} in the spec, or run with --placement spec to move it to ${spec}`
  );
}

/** Where the guest's placement stands, and the steps and messages it takes. */
function placementDrafts(
  calls: GuestStepCalls,
  desired: DesiredLike,
  live: LiveLike & { status: PowerState },
  options: UpdateOptions,
  migration: MigrationFacts,
): { drafts: StepDraft[]; errors: string[]; warnings: string[]; node: string; tags: string[]; moved?: MovedGuest } {
  const record = placementRecord(live.tags);
  const decision = decidePlacement({
    live: live.node,
    spec: desired.node,
    ...(record.node !== undefined ? { record: record.node } : {}),
    recordPresent: record.present,
    haManaged: haManaged(live.ha),
    followSpec: options.placement?.followSpec === true,
  });
  const out = { drafts: [] as StepDraft[], errors: [] as string[], warnings: [] as string[], node: live.node, tags: live.tags };
  const name = live.name ?? String(live.vmid);
  switch (decision.kind) {
    case "in-place":
      return out;
    case "record": {
      const recorded = recordPlacementStep(calls.config, live, live.node);
      return { ...out, drafts: [recorded.step], tags: recorded.tags };
    }
    case "moved-elsewhere":
      return { ...out, warnings: [movedWarning(decision, live, desired.node)], moved: { specNode: desired.node, liveNode: live.node } };
    case "ha-owned":
      return {
        ...out,
        errors: [
          `${haNames(live.ha!)}, which owns its placement: pvectl does not migrate an HA resource. The spec moves it from ${live.node} to ${desired.node}: ` +
            `migrate it through HA (ha-manager migrate ${live.ha!.sid} ${desired.node}), or set node: ${live.node} in the spec`,
        ],
      };
    case "migrate": {
      const shared = options.placement?.sharedStorages;
      const isShared = (storage: string) => shared?.has(storage) === true;
      const cdroms = migration.volumes
        .filter((v) => v.cdrom && !isShared(v.storage))
        .map((v) => `${v.slot} shows ${v.volume}, on node-local storage ${v.storage} (PVE does not copy CD-ROM images)`);
      const blockers = [...migration.blockers, ...cdroms];
      if (blockers.length > 0) {
        return {
          ...out,
          errors: [
            `${name} cannot move from ${live.node} to ${desired.node}: ${blockers.join("; ")}. Remove what ties it to ${live.node}, or keep node: ${live.node} in the spec`,
          ],
        };
      }
      const moving = migrateStep(calls.migrate, live, desired.node, migration, isShared);
      const recorded = recordPlacementStep(calls.config, live, desired.node);
      return { ...out, drafts: [moving, recorded.step], node: desired.node, tags: recorded.tags };
    }
  }
}

/**
 * `noun`: how messages name the guest ("VM", "container"); `migration`: what the kind tells about
 * the live guest for moving it. Order: adopt, pool, a stop the spec asks for, then the migration
 * and the placement record; every later step runs on `node`.
 */
export function openUpdate(
  calls: GuestStepCalls,
  desired: DesiredLike,
  live: LiveLike,
  options: UpdateOptions,
  noun: "VM" | "container",
  migration: MigrationFacts,
): UpdateOpening {
  const errors = [...templateWishErrors(desired), ...liveTemplateErrors(desired, live, noun)];
  const warnings: string[] = [];
  if (live.lock) warnings.push(`${noun === "VM" ? "guest" : "container"} is locked (${live.lock}); apply waits and retries`);
  for (const [slot, volume] of Object.entries(live.unused)) {
    warnings.push(
      `${slot} holds ${volume}, attached to nothing (the source of a move made without --allow-data-loss, or a detached disk); ` +
        `pvectl leaves it: to destroy it, run ${unusedRemoval(noun, live.node, live.vmid, slot)}`,
    );
  }
  const drafts: StepDraft[] = [];
  const adopting = options.adopt === true && !live.tags.includes(OWNERSHIP_TAG);
  let tags = live.tags;
  if (adopting) {
    drafts.push(adoptStep(calls, live));
    tags = [...live.tags, OWNERSHIP_TAG];
  }
  drafts.push(...poolDrafts(desired, live));
  let running = live.status === "running";
  const converting = converts(desired, live);
  const ha = haManaged(live.ha) ? live.ha : undefined;
  if (ha !== undefined) errors.push(...haPowerErrors(desired, live, ha, converting, noun));
  if ((desired.power === "stopped" || converting) && running) {
    // PVE converts only a stopped guest: the stop comes first, and every change after it applies at once.
    drafts.push(stopStep(calls, live, options, converting ? "before converting it to a template " : ""));
    running = false;
  }
  const placement = placementDrafts(calls, desired, { ...live, tags, status: running ? "running" : "stopped" }, options, migration);
  errors.push(...placement.errors);
  warnings.push(...placement.warnings);
  drafts.push(...placement.drafts);
  return {
    errors,
    warnings,
    drafts,
    adopting,
    running,
    converting,
    node: placement.node,
    tags: placement.tags,
    ...(ha !== undefined ? { ha } : {}),
    ...(placement.moved !== undefined ? { moved: placement.moved } : {}),
  };
}

/** Said instead of a restart step for an HA resource: pvectl makes no power call on it. */
export function haRestartWarning(ha: HaState, keys: string[], verb: "reboot" | "restart"): string {
  return (
    `${keys.join(", ")} wait for a ${verb}, which pvectl does not make: ${haNames(ha)}, which owns its power. ` +
    `${verb === "reboot" ? "Reboot" : "Restart"} it when it suits you (HA keeps its requested state)`
  );
}
