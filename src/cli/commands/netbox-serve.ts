// `pvectl netbox serve`: a webhook receiver for NetBox event rules that builds the records the
// events name (app/netbox/serve.ts), with a periodic full reconcile; JSON-line logs on stdout.
import { readFileSync } from "node:fs";
import { type Command, InvalidArgumentError } from "commander";
import { startNetboxServe } from "../../app/netbox/serve.js";
import { loadNetboxConfig } from "../../app/netbox/setup.js";
import { parseDuration } from "../../util/duration.js";
import { untilStopped } from "../until-stopped.js";
import { type ApplyFlags, guardOptions } from "./apply-flow.js";
import { LOCK_WAIT_FLAG, lockWaitOption } from "./lock-wait.js";
import { type CommonFlags, NetboxSetupError, netboxClient, pveClients } from "./netbox-setup.js";

interface ServeFlags extends Pick<CommonFlags, "config" | "url">, ApplyFlags {
  listen: { host: string; port: number };
  secretEnv: string;
  secretFile?: string;
  reconcile: number;
}

/** `8080`, `:8080` (every interface) or `host:8080`. */
export function parseListen(value: string): { host: string; port: number } {
  const match = /^(?:(.*):)?(\d{1,5})$/.exec(value.trim());
  const port = Number(match?.[2]);
  if (!match || !(port >= 0 && port <= 65535)) throw new InvalidArgumentError("give a port (8080), :port (every interface) or host:port.");
  const host = match[1] === undefined ? "127.0.0.1" : match[1] === "" ? "0.0.0.0" : match[1].replace(/^\[(.*)\]$/, "$1");
  return { host, port };
}

function parseInterval(value: string): number {
  const ms = parseDuration(value);
  if (ms === undefined) throw new InvalidArgumentError("give a duration such as 5m or 1h (0: no periodic reconcile).");
  return ms;
}

/** The shared secret: from a file or the environment, never from the command line (it would show in `ps`). */
function webhookSecret(flags: ServeFlags, env: NodeJS.ProcessEnv = process.env): string {
  if (flags.secretFile !== undefined) {
    try {
      const secret = (readFileSync(flags.secretFile, "utf8").split(/\r?\n/)[0] ?? "").trim();
      if (secret !== "") return secret;
    } catch (err) {
      throw new NetboxSetupError(`--secret-file ${flags.secretFile} cannot be read (${(err as NodeJS.ErrnoException).code ?? "error"})`);
    }
    throw new NetboxSetupError(`--secret-file ${flags.secretFile} is empty`, "put the webhook's secret on its first line");
  }
  const secret = env[flags.secretEnv]?.trim();
  if (!secret)
    throw new NetboxSetupError(
      "no webhook secret (without one anyone who can reach this port could trigger builds)",
      `export ${flags.secretEnv} (or give --secret-file) with the secret set on the NetBox webhook`,
    );
  return secret;
}

export function registerNetboxServe(netbox: Command): void {
  netbox
    .command("serve")
    .description(
      "receive NetBox webhooks (event rules on virtual machines) and build the records they name; reconcile everything periodically",
    )
    .requiredOption("-c, --config <file>", "NetBox sync config (YAML; keys in docs/netbox.md)")
    .option("--url <url>", "NetBox URL (default: netbox.url in the config, else NETBOX_URL)")
    .option("--listen <[host]:port>", "where to listen: 8080 (localhost), :8080 (every interface), host:8080", parseListen, {
      host: "127.0.0.1",
      port: 8080,
    })
    .option("--secret-env <name>", "environment variable holding the webhook's secret", "NETBOX_WEBHOOK_SECRET")
    .option("--secret-file <file>", "file whose first line is the webhook's secret (instead of the environment)")
    .option(
      "--reconcile <duration>",
      "full sync of the configured selection this often, as a safety net (0: only at start)",
      parseInterval,
      15 * 60_000,
    )
    .option("--allow-restart", "run service-impact steps, as sync does")
    .option("--allow-data-loss", "run data-loss-risk steps, as sync does")
    .option("--defer-restart", "write changes that need a reboot as PVE pending changes, as sync does")
    .option(...LOCK_WAIT_FLAG)
    .addHelpText(
      "after",
      "\nEndpoints: POST /webhook (NetBox's default body, X-Hook-Signature required), GET /healthz (200, or 503 while\n" +
        "the latest sync failed outright). Refused and logged, nothing runs for it: a missing or wrong signature (401),\n" +
        "a body that is not NetBox's or an entry with a malformed id (400), a delivery seen before, older than 5 minutes\n" +
        "or more than 30 s ahead of this clock (409). Logs are JSON lines on stdout. Stop with Ctrl-C.",
    )
    .action(async (flags: ServeFlags) => {
      const guard = guardOptions(flags);
      const secret = webhookSecret(flags);
      const config = await loadNetboxConfig(flags.config);
      const client = netboxClient(config, flags.url ? { url: flags.url } : {});
      const pve = pveClients(config);
      const stopped = untilStopped();
      const serve = await startNetboxServe({
        config,
        netbox: client,
        pveClient: pve.get,
        apply: { ...guard, ...lockWaitOption(flags.lockWait) },
        secret,
        host: flags.listen.host,
        port: flags.listen.port,
        reconcileMs: flags.reconcile,
        log: (entry) => process.stdout.write(`${JSON.stringify(entry)}\n`),
      });
      await stopped;
      await serve.close();
      await client.close();
      await pve.close();
    });
}
