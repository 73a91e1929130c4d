// `pvectl netbox sync|diff|decommission|sim`: NetBox as the source of truth (docs/netbox.md).
//   sync          planned records -> built VMs -> staged (vmid, MACs, primary IPv4 written back)
//   diff          where NetBox and PVE disagree, both ways; writes nothing
//   serve         NetBox webhooks -> sync of the records they name, with a periodic reconcile
//   decommission  decommissioning records -> guest destroyed -> released -> offline / deleted
//   sim           a NetBox API simulator with demo records, for tests and demos
import type { Command } from "commander";
import { type DecommissionOutcome, decommissionNetbox } from "../../app/netbox/decommission.js";
import { type RecordOutcome, syncNetbox } from "../../app/netbox/sync.js";
import { loadNetboxConfig } from "../../app/netbox/setup.js";
import { startNetboxSimulator } from "../../app/netbox/simulator.js";
import type { Plan } from "../../app/plan-model.js";
import { safeLine, safeText } from "../../util/safe-text.js";
import { type Palette, paletteFor, renderPlan } from "../render/plan.js";
import { progressLine } from "../render/report.js";
import { untilStopped } from "../until-stopped.js";
import { ALLOW_HOST_ACCESS_FLAG, type ApplyFlags, confirm, EXIT_PENDING, guardOptions } from "./apply-flow.js";
import { LOCK_WAIT_FLAG, lockWaitOption } from "./lock-wait.js";
import { registerNetboxDiff } from "./netbox-diff.js";
import { registerNetboxServe } from "./netbox-serve.js";
import { addRecordFlags, type CommonFlags, collect, NetboxSetupError, netboxClient, pveClients, selectionOf } from "./netbox-setup.js";
import { UsageError } from "./plan.js";

function showPlan(p: Palette, json: boolean | undefined) {
  return (connection: string, plan: Plan) => {
    if (json) return;
    process.stdout.write(
      `${p.bold(`plan for ${connection === "" ? "the PROXMOX_* connection" : `connection ${safeLine(connection)}`}`)}\n`,
    );
    process.stdout.write(`${renderPlan(plan, p)}\n`);
  };
}

export function syncLine(o: RecordOutcome, p: Palette): string {
  const who = safeLine(`${o.name} (NetBox id ${o.id})`);
  if (o.result === "staged") {
    return `${p.green("staged ")} ${who}: ${o.guestKind ?? "vm"} ${o.vmid} on ${o.node} (${o.guestResult})${o.wrote.length ? `; wrote ${o.wrote.join(", ")}` : ""}`;
  }
  if (o.result === "converged") {
    return `${p.green("converged")} ${who}: ${o.guestKind ?? "vm"} ${o.vmid} on ${o.node} (${o.guestResult})${o.wrote.length ? `; wrote ${o.wrote.join(", ")}` : ""} (status stays ${o.status})`;
  }
  if (o.result === "changed") {
    return `${p.yellow("changed")} ${who}: ${o.guestKind ?? "vm"} ${o.vmid} on ${o.node} (${o.guestResult}) built from the record as selected; changed while it was built: ${safeText((o.changes ?? []).join(", "))}${o.wrote.length ? `; wrote ${o.wrote.join(", ")}` : ""}${o.errors.length ? `; ${safeText(o.errors.join("; "))}` : ""} (status stays ${o.status})`;
  }
  if (o.result === "planned")
    return `${p.cyan("planned")} ${who}: would build${o.vmid !== undefined ? ` ${o.guestKind ?? "vm"} ${o.vmid}` : ""} on ${o.node}`;
  if (o.result === "held")
    return `${p.yellow("held   ")} ${who}: ${o.guestKind ?? "vm"} ${o.vmid ?? "-"} on ${o.node}: ${safeText(o.errors.join("; "))} (status stays ${o.status})`;
  if (o.result === "busy") return `${p.yellow("busy   ")} ${who}: left alone: ${safeText(o.errors.join("; "))} (status stays ${o.status})`;
  const label = o.result === "invalid" ? p.red("invalid") : p.red("failed ");
  return `${label} ${who}: ${safeText(o.errors.join("; "))} (status stays ${o.status})`;
}

/** --rebuild names that matched no selected record (a typo, or a record the selection left out). */
function unmatchedRebuilds(names: string[] | undefined, records: RecordOutcome[]): string[] {
  return (names ?? []).filter((name) => !records.some((r) => r.name === name));
}

async function confirmRetire(records: string[]): Promise<boolean> {
  const ok = await confirm(
    `\nDecommission ${records.length} record(s) (${records.map(safeLine).join(", ")}): destroy their guests and release what pvectl wrote? Type 'yes' to continue: `,
  );
  if (!ok) process.stderr.write("Cancelled; nothing was changed for these records.\n");
  return ok;
}

function decommissionLine(o: DecommissionOutcome, p: Palette): string {
  const who = safeLine(`${o.name} (NetBox id ${o.id})`);
  if (o.result === "planned") return `${p.cyan("planned")} ${who}: ${o.guest}`;
  if (o.result === "cancelled") return `${p.yellow("cancelled")} ${who}: not confirmed; nothing changed (status stays decommissioning)`;
  if (o.result === "failed") return `${p.red("failed ")} ${who}: ${safeText(o.errors.join("; "))} (status stays decommissioning)`;
  if (o.result === "held") return `${p.yellow("held   ")} ${who}: ${safeText(o.errors.join("; "))} (status stays decommissioning)`;
  return `${p.green(o.result.padEnd(7))} ${who}: guest ${o.guest}; released ${o.released.join(", ") || "nothing"}`;
}

function addSelectionFlags(cmd: Command): Command {
  return addRecordFlags(cmd).option("--plan-only", "show the plan; change nothing in Proxmox VE or NetBox");
}

export function registerNetboxCommand(program: Command): void {
  const netbox = program
    .command("netbox")
    .description("NetBox as the source of truth: build planned VMs and containers, decommission retired ones");

  addSelectionFlags(
    netbox
      .command("sync")
      .description(
        "build the VMs (or containers, where the platform says so) of NetBox records with status planned, write back vmid/MACs/IP, set them staged; converge staged/active records too when select.status lists them",
      ),
  )
    .option("--allow-restart", "run service-impact steps (stop, reboot, NIC hot-unplug, changes that need a reboot), as apply does")
    .option(...LOCK_WAIT_FLAG)
    .option("--allow-data-loss", "run data-loss-risk steps (disk delete), as apply does")
    .option(...ALLOW_HOST_ACCESS_FLAG)
    .option(
      "--defer-restart",
      "write changes that need a reboot as PVE pending changes without rebooting (the record stays planned until the reboot)",
    )
    .option(
      "--rebuild <name>",
      "build this staged/active record's guest again although it is gone from PVE: a blank guest, not the old one (repeatable)",
      collect,
    )
    .addHelpText(
      "after",
      "\nA record moves to staged only when every step of its guest ran; steps held back by the guard rails (or a reboot\n" +
        "still owed) leave it planned with a journal entry saying what waits. A record edited in NetBox while its guest\n" +
        "was built (its status, or a field the build used: name, vCPUs, memory, disks, interfaces ...) keeps the edit:\n" +
        "its status is not written, a journal entry says what changed, and it is reported as changed.\n" +
        "\nA staged or active record whose guest is gone from Proxmox VE fails with a plan error: building it again would\n" +
        "make a blank guest (empty disks, the installer ISO, the old MAC), not bring the old one back. Restore it from a\n" +
        "backup, or name it with --rebuild NAME to build it blank.\n" +
        "\nExit codes: 0 every selected record staged or converged (or planned with --plan-only), 1 a record failed or is\n" +
        "invalid, 3 none failed but records were held back by the guard rails (they keep their status; rerun with the flag),\n" +
        "changed during the build (the next sync converges them), or busy: another pvectl run (serve, a timer) was working on them.",
    )
    .action(async (flags: CommonFlags & ApplyFlags & { lockWait?: number; rebuild?: string[] }) => {
      const guard = guardOptions(flags);
      const config = await loadNetboxConfig(flags.config);
      const client = netboxClient(config, flags);
      const pve = pveClients(config);
      const p = paletteFor(process.stdout);
      const err = paletteFor(process.stderr);
      try {
        const report = await syncNetbox({
          config,
          netbox: client,
          pveClient: pve.get,
          selection: selectionOf(flags),
          planOnly: flags.planOnly === true,
          ...(flags.rebuild ? { rebuild: flags.rebuild } : {}),
          apply: { ...guard, ...lockWaitOption(flags.lockWait) },
          onPlan: showPlan(p, flags.json),
          onEvent: (event) => {
            if (flags.json) return;
            const line = progressLine(event, err);
            if (line) process.stderr.write(`${line}\n`);
          },
          onRecord: (o) => {
            if (!flags.json) process.stdout.write(`${syncLine(o, p)}\n`);
          },
        });
        for (const warning of report.warnings ?? []) process.stderr.write(`warning: ${safeText(warning)}\n`);
        for (const name of unmatchedRebuilds(flags.rebuild, report.records)) {
          process.stderr.write(`warning: --rebuild ${safeLine(name)} names no record this run selected; nothing was rebuilt for it\n`);
        }
        if (flags.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
        else if (report.records.length === 0)
          process.stdout.write(`no NetBox records with status ${config.select.status.join(" or ")} match; nothing to do\n`);
        else {
          const count = (r: string) => report.records.filter((o) => o.result === r).length;
          process.stdout.write(
            `${count("staged")} staged, ${count("converged") > 0 ? `${count("converged")} converged, ` : ""}${count("changed") > 0 ? `${count("changed")} changed during the build, ` : ""}${count("planned")} planned only, ${count("held")} held back, ${count("busy") > 0 ? `${count("busy")} busy (another run), ` : ""}${count("failed")} failed, ${count("invalid")} invalid\n`,
          );
        }
        if (!report.ok) process.exitCode = 1;
        else if (report.records.some((o) => o.result === "held" || o.result === "busy" || o.result === "changed"))
          process.exitCode = EXIT_PENDING;
      } finally {
        await client.close();
        await pve.close();
      }
    });

  registerNetboxDiff(netbox);
  registerNetboxServe(netbox);

  addSelectionFlags(
    netbox
      .command("decommission")
      .description("destroy the guests of NetBox records with status decommissioning, release what pvectl wrote, set them offline"),
  )
    .option("--allow-data-loss", "really destroy the guests and their disks (without it the destroy steps are refused)")
    .option(
      "--known-hosts <file>",
      "also remove each retired guest's name, DNS name and addresses from this OpenSSH known_hosts file (as ssh-keygen -R)",
    )
    .option("-y, --yes", "do not ask for confirmation")
    .addHelpText(
      "after",
      "\nA record is retired only when its guest is destroyed; without --allow-data-loss the destroy is held back by the\n" +
        "guard rails and the record stays decommissioning with a journal entry saying what waits (as sync holds records back).\n" +
        "\nExit codes: 0 every selected record retired (or planned with --plan-only), 1 a record failed or was not\n" +
        "confirmed, 3 none failed but records were held back by the guard rails (rerun with --allow-data-loss).",
    )
    .action(async (flags: CommonFlags & { allowDataLoss?: boolean; knownHosts?: string; yes?: boolean }) => {
      // Refused before anything is read, so nothing can be half done.
      if (!flags.yes && !flags.planOnly && !process.stdin.isTTY)
        throw new UsageError(
          "refusing to decommission without confirmation and there is no terminal to ask on",
          "review it with --plan-only, then run again with --yes",
        );
      const config = await loadNetboxConfig(flags.config);
      const client = netboxClient(config, flags);
      const pve = pveClients(config);
      const p = paletteFor(process.stdout);
      try {
        const report = await decommissionNetbox({
          config,
          netbox: client,
          pveClient: pve.get,
          selection: selectionOf(flags),
          allowDataLoss: flags.allowDataLoss === true,
          planOnly: flags.planOnly === true,
          ...(flags.knownHosts !== undefined ? { knownHosts: flags.knownHosts } : {}),
          ...(flags.yes ? {} : { confirm: (_connection: string, _plan: Plan, records: string[]) => confirmRetire(records) }),
          onPlan: showPlan(p, flags.json),
          onRecord: (o) => {
            if (!flags.json) process.stdout.write(`${decommissionLine(o, p)}\n`);
          },
        });
        if (flags.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
        else if (report.records.length === 0)
          process.stdout.write(`no NetBox records with status ${config.decommission.status} match; nothing to do\n`);
        if (!report.ok) process.exitCode = 1;
        else if (report.records.some((o) => o.result === "held")) process.exitCode = EXIT_PENDING;
      } finally {
        await client.close();
        await pve.close();
      }
    });

  netbox
    .command("sim")
    .description("run a NetBox REST API simulator (virtual machines, interfaces, disks, MACs, IPAM, tags, custom fields) until Ctrl-C")
    .option("--host <address>", "interface to listen on", "127.0.0.1")
    .option("--port <port>", "TCP port (0 picks a free one)", "8000")
    .option("--data <seed>", "initial data: demo (a Proxmox cluster, platforms, planned VMs) or empty", "demo")
    .option(
      "--netbox-version <version>",
      "NetBox version to behave like (4.1: no MAC objects; 4.5+: v2 tokens; 4.6+: ETag/If-Match)",
      "4.6.8",
    )
    .option("--token <token>", "accept this token (v1: 40 hex digits; v2: nbt_<key>.<secret>); repeatable; default: generated", collect)
    .option("--json", "print the connection details as JSON")
    .action(async (flags: { host: string; port: string; data: string; netboxVersion: string; token?: string[]; json?: boolean }) => {
      const port = Number(flags.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        throw new NetboxSetupError(`--port '${flags.port}' is not a TCP port`, "give a port from 0 to 65535 (0 picks a free one)");
      if (flags.data !== "demo" && flags.data !== "empty")
        throw new NetboxSetupError(`--data '${flags.data}' is unknown`, "use demo or empty");
      const sim = await startNetboxSimulator({
        host: flags.host,
        port,
        seed: flags.data,
        version: flags.netboxVersion,
        ...(flags.token?.length ? { tokens: flags.token } : {}),
      });
      const stopped = untilStopped(); // before the address is printed, as `pvectl sim` does
      if (flags.json)
        process.stdout.write(
          `${JSON.stringify({ url: sim.url, api: `${sim.url}/api/`, token: sim.token, v2Token: sim.v2Token, version: sim.version })}\n`,
        );
      else
        process.stdout.write(
          [
            `NetBox API simulator (NetBox ${sim.version}) listening on ${sim.url}/api/`,
            `  export NETBOX_URL=${sim.url}`,
            `  export NETBOX_TOKEN=${sim.token}`,
            `  v2 token:    ${sim.v2Token}`,
            `  data:        ${flags.data}`,
            "Press Ctrl-C to stop.",
            "",
          ].join("\n"),
        );
      await stopped;
      await sim.close();
    });
}
