// What `access needs -c` derives from the parts of a NetBox config that narrow or widen it:
// the clusters in scope (select.clusters, --connection), a storage only the records' custom
// field names (never an invented path; a note instead), each platform's own storages and
// bridges, and the NetBox permissions that follow the write-back and decommission settings.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { netboxAccessNeeds } from "../../src/app/access-netbox.js";
import { parseNetboxConfig } from "../../src/sources/netbox/config.js";

const config = (text: string) => parseNetboxConfig(text, "netbox.yaml");
const paths = (text: string, connection?: string) =>
  netboxAccessNeeds(config(text), connection === undefined ? {} : { connection }).paths.map((p) => p.path);

const TWO_CLUSTERS = `connections:
  a: { host: a.example }
  b: { host: b.example }
clusters:
  one: { connection: a, node: pve1, storage: fast, bridge: vmbr0 }
  two: { connection: b, node: pve1, storage: slow, bridge: vmbr1 }
platforms:
  debian: { ostype: l26 }
`;

describe("access needs of a NetBox config", () => {
  it("every configured cluster, or only those select.clusters names, or those on --connection", () => {
    assert.deepEqual(paths(TWO_CLUSTERS), [
      "/sdn/zones/localnetwork/vmbr0",
      "/sdn/zones/localnetwork/vmbr1",
      "/storage/fast",
      "/storage/slow",
      "/vms",
    ]);
    assert.deepEqual(paths(`${TWO_CLUSTERS}select: { clusters: [two] }\n`), ["/sdn/zones/localnetwork/vmbr1", "/storage/slow", "/vms"]);
    assert.deepEqual(paths(TWO_CLUSTERS, "a"), ["/sdn/zones/localnetwork/vmbr0", "/storage/fast", "/vms"]);
  });

  it("a storage only the records name is no path, and a note says to grant each one", () => {
    const needs = netboxAccessNeeds(config("clusters:\n  lab: { node: pve1 }\nplatforms:\n  debian: { ostype: l26 }\n"));
    assert.deepEqual(
      needs.paths.map((p) => p.path),
      ["/vms"],
    );
    assert.ok(
      needs.notes.some((n) => n.includes("names no storage for debian") && n.includes("proxmox_storage")),
      needs.notes.join("\n"),
    );
  });

  it("each platform's storages: a full clone's target, the cloud-init drive's, the image's and the template's", () => {
    const text = `clusters:
  lab: { node: pve1, storage: local-lvm, bridge: vmbr0 }
platforms:
  tpl: { clone: { from: 9000, full: true, storage: ceph }, cloudInit: { storage: ci-store } }
  img: { ostype: l26, image: "images:import/noble.qcow2" }
  ct: { container: { ostemplate: "templates:vztmpl/debian.tar.zst", storage: ct-store } }
`;
    const needs = netboxAccessNeeds(config(text));
    for (const storage of ["ceph", "ci-store", "images", "templates", "ct-store", "local-lvm"])
      assert.ok(
        needs.paths.some((p) => p.path === `/storage/${storage}`),
        storage,
      );
    const privileges = (path: string) => needs.paths.find((p) => p.path === path)?.privileges.map((p) => p.privilege) ?? [];
    assert.ok(privileges("/vms").includes("VM.Config.Cloudinit"), privileges("/vms").join(", "));
    assert.ok(privileges("/vms/9000").includes("VM.Clone"), "the clone source is named by its vmid");
    // The clone's target (vmid allocated at build) is /vms; the template's storage is a note, no path.
    assert.deepEqual(
      needs.paths.filter((p) => /[{}]|undefined|template-storage/.test(p.path)).map((p) => p.path),
      [],
    );
    assert.ok(privileges("/vms").includes("VM.Allocate"));
    assert.ok(
      needs.notes.some((n) => n.startsWith("platforms clone from templates (tpl: vmid 9000)")),
      needs.notes.join("\n"),
    );
  });

  it("a storage id PVE refuses is refused in the config, not met while deriving (a one-letter id)", () => {
    assert.throws(
      () => config("clusters:\n  lab: { node: pve1, storage: s }\nplatforms:\n  d: { ostype: l26 }\n"),
      /clusters\.lab\.storage: not a PVE storage id/,
    );
  });

  it("the NetBox permissions follow write-back and decommission", () => {
    const base = "clusters:\n  lab: { node: pve1, storage: st }\nplatforms:\n  d: { ostype: l26 }\n";
    const listed = (text: string) => netboxAccessNeeds(config(text)).netbox.map((p) => `${p.objectType} ${p.action}`);
    const plain = listed(`${base}writeBack: { macs: false }\ndecommission: { releaseIps: false, releaseMacs: false }\n`);
    assert.ok(
      !plain.includes("ipam.ipaddress add") && !plain.includes("dcim.macaddress add") && !plain.includes("ipam.ipaddress delete"),
      plain.join(", "),
    );
    const all = listed(
      `${base}writeBack: { primaryIp4: {}, dns: { zone: lab.example } }\ndecommission: { deleteInterfaces: true, final: delete }\n`,
    );
    for (const p of [
      "ipam.ipaddress add",
      "ipam.ipaddress change",
      "virtualization.vminterface delete",
      "virtualization.virtualmachine delete",
      "dcim.macaddress add",
    ])
      assert.ok(all.includes(p), p);
  });
});
