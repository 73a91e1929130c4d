// DNS names and a complete teardown: sync writes `<name>.<zone>` as the dns_name of the record's
// primary address (pynetbox reads it back as NetBox stores it); decommission clears it on an
// address that stays, removes the guest's known_hosts entries (name, DNS name, every address),
// and the rest of the file is untouched.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, test } from "node:test";
import { decommissionNetbox } from "../../src/app/netbox/decommission.js";
import { parseNetboxConfig } from "../../src/sources/netbox/config.js";
import { DEMO_CONFIG } from "./fixtures.js";
import { obj } from "../support/netbox-http.js";
import { FAST_APPLY, type NetboxLab, startNetboxLab } from "../support/netbox-lab.js";
import { pynetboxRead } from "./pynetbox-read.js";

const VMS = "virtualization/virtual-machines";
const CONFIG = `${DEMO_CONFIG}  dns:\n    zone: lab.example.com\ndecommission:\n  releaseIps: false\n`;

describe("netbox dns_name and teardown", () => {
  let lab: NetboxLab;
  const dir = mkdtempSync(join(tmpdir(), "pvectl-teardown-"));
  afterEach(async () => {
    await lab.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("sync writes dns_name; decommission clears it and removes the guest from known_hosts", async () => {
    lab = await startNetboxLab(CONFIG);
    const synced = await lab.sync();
    assert.equal(synced.ok, true, JSON.stringify(synced.records));
    const web = lab.nb.admin.list(VMS, { name: "web-01" })[0]!;
    const address = String(obj(web.primary_ip4).address);
    const ip = lab.nb.admin.list("ipam/ip-addresses", { address })[0]!;
    assert.equal(ip.dns_name, "web-01.lab.example.com");
    assert.equal(await pynetboxRead(lab.nb, `nb.ipam.ip_addresses.get(address="${address}").dns_name`), "web-01.lab.example.com");
    assert.ok(synced.records.find((r) => r.name === "web-01")?.wrote.includes(`dns_name web-01.lab.example.com on ${address}`));
    // A rerun writes nothing new.
    assert.deepEqual(
      (await lab.sync({ selection: { status: "staged" } })).records.flatMap((r) => r.wrote),
      [],
    );

    const host = address.replace(/\/\d+$/, "");
    const knownHosts = join(dir, "known_hosts");
    const keep = "web-02 ssh-ed25519 AAAAkeep\n[bastion]:2222 ssh-ed25519 AAAAbastion\n";
    writeFileSync(
      knownHosts,
      `web-01 ssh-ed25519 AAAAone\n${keep}web-01.lab.example.com,${host} ssh-ed25519 AAAAtwo\n${host} ssh-ed25519 AAAAthree\n`,
    );
    lab.nb.admin.update(VMS, Number(web.id), { status: "decommissioning" });
    const done = await decommissionNetbox({
      config: lab.config,
      netbox: lab.netbox,
      pveClient: () => lab.pve,
      apply: FAST_APPLY,
      allowDataLoss: true,
      knownHosts,
    });
    assert.equal(done.ok, true, JSON.stringify(done.records));
    assert.ok(done.records[0]?.released.includes("dns_name web-01.lab.example.com"), JSON.stringify(done.records[0]?.released));
    assert.ok(done.records[0]?.released.includes("3 known_hosts entries"), JSON.stringify(done.records[0]?.released));
    assert.equal(readFileSync(knownHosts, "utf8"), keep);
    // releaseIps: false keeps the address, without the name pvectl gave it.
    assert.equal(lab.nb.admin.list("ipam/ip-addresses", { address })[0]?.dns_name, "");
  });
});

test("a zone that is not a DNS name is refused with its location", () => {
  assert.throws(
    () => parseNetboxConfig(`${DEMO_CONFIG}  dns:\n    zone: "lab example"\n`, "netbox.yaml"),
    /writeBack\.dns\.zone.*expected a DNS zone like lab\.example\.com/s,
  );
});
