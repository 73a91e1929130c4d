import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  allEndpoints,
  codeFormat,
  expandIndexedName,
  getEndpoint,
  getFormat,
  isCodeFormat,
  matchEndpoint,
  matchPath,
  paramSchema,
  pathExists,
  propertyStringFormatNames,
} from "../../src/schema/index.js";
import { PathTrie } from "../../src/schema/path-trie.js";
import type { ParamSchema } from "../../src/schema/types.js";

describe("matching concrete paths", () => {
  it("finds the template and decodes the path parameters", () => {
    const found = matchEndpoint("PUT", "/nodes/pve1/qemu/100/config");
    assert.equal(found?.endpoint.path, "/nodes/{node}/qemu/{vmid}/config");
    assert.equal(found?.endpoint.method, "PUT");
    assert.deepEqual(found?.pathParams, { node: "pve1", vmid: "100" });
  });

  it("decodes percent-encoded UPIDs", () => {
    const upid = "UPID:pve1:00001234:0000ABCD:6560F00D:qmstart:100:root@pam:";
    const found = matchEndpoint("GET", `/nodes/pve1/tasks/${encodeURIComponent(upid)}/status`);
    assert.equal(found?.endpoint.path, "/nodes/{node}/tasks/{upid}/status");
    assert.equal(found?.pathParams.upid, upid);
  });

  it("prefers a literal segment over a {param} segment, and falls back when the literal dead-ends", () => {
    // PVE 9.1 has no such overlap today; the trie still has to get it right for a future schema.
    const trie = new PathTrie<string>();
    trie.insert("/pools/{poolid}", "pool");
    trie.insert("/pools/all", "all-pools");
    trie.insert("/pools/{poolid}/members", "members");
    assert.equal(trie.match("/pools/all")?.value, "all-pools");
    assert.deepEqual(trie.match("/pools/web")?.pathParams, { poolid: "web" });
    assert.deepEqual(trie.match("/pools/all/members"), {
      value: "members",
      template: "/pools/{poolid}/members",
      pathParams: { poolid: "all" },
    });
  });

  it("tolerates a trailing slash and refuses empty segments", () => {
    assert.equal(matchPath("/version/")?.template, "/version");
    assert.equal(matchPath("/nodes//qemu"), undefined);
    assert.equal(matchPath("/nodes/%E0%A4%A/qemu"), undefined);
  });

  it("tells an unknown path from a known path without that method (PVE answers 501)", () => {
    assert.equal(pathExists("/nodes/pve1/qemu/100/nope"), false);
    assert.equal(pathExists("/version"), true);
    assert.equal(matchEndpoint("DELETE", "/version"), undefined);
    assert.deepEqual(Object.keys(matchPath("/nodes/pve1/qemu/100/config")?.endpoints ?? {}).sort(), ["GET", "POST", "PUT"]);
  });
});

describe("resolving concrete parameter names", () => {
  const put = getEndpoint("PUT", "/nodes/{node}/qemu/{vmid}/config");
  assert.ok(put);

  it("maps net3 to net[n] within its index range and refuses net32 and net03", () => {
    assert.equal(paramSchema(put, "net3"), put.params["net[n]"]);
    assert.equal(paramSchema(put, "net31"), put.params["net[n]"]);
    assert.equal(paramSchema(put, "net32"), undefined);
    assert.equal(paramSchema(put, "net03"), undefined);
    assert.equal(paramSchema(put, "scsi30")?.index?.max, 30);
    assert.equal(paramSchema(put, "scsi31"), undefined);
  });

  it("finds plain keys that end in a digit (efidisk0, tpmstate0) directly", () => {
    assert.equal(paramSchema(put, "efidisk0"), put.params.efidisk0);
    assert.equal(paramSchema(put, "tpmstate0"), put.params.tpmstate0);
    assert.equal(paramSchema(put, "cores")?.type, "integer");
    assert.equal(paramSchema(put, "nonsense"), undefined);
  });

  it("expands an indexed key to all its concrete names", () => {
    const names = expandIndexedName("ide[n]", put.params["ide[n]"] ?? {});
    assert.deepEqual(names, ["ide0", "ide1", "ide2", "ide3"]);
    assert.deepEqual(expandIndexedName("cores", put.params.cores ?? {}), ["cores"]);
  });
});

describe("named formats", () => {
  it("gives the sub-schemas of named property-string formats", () => {
    const boot = getFormat("pve-qm-boot");
    assert.equal(boot?.order?.type, "string");
    assert.equal(boot?.legacy?.default_key, true);
    const cpu = getFormat("pve-vm-cpu-conf");
    assert.equal(cpu?.cputype?.default_key, true);
    assert.equal(cpu?.cputype?.default, "kvm64");
    const ipconfig = getFormat("pve-qm-ipconfig");
    assert.equal(ipconfig?.gw?.format, "ipv4");
    assert.equal(ipconfig?.gw?.requires, "ip");
    const prune = getFormat("prune-backups");
    assert.equal(prune?.["keep-last"]?.type, "integer");
    assert.equal(getFormat("pve-vmid"), undefined);
  });

  it('normalises the registry\'s Perl-isms (optional "1", default "1", type ip)', () => {
    const sync = getFormat("realm-sync-options");
    assert.equal(sync?.["enable-new"]?.optional, true);
    assert.equal(sync?.["enable-new"]?.default, 1);
    const range = getFormat("pve-sdn-dhcp-range");
    assert.deepEqual(range?.["start-address"], { type: "string", format: "ip" });
  });

  it("lists the 18 property-string formats", () => {
    assert.equal(propertyStringFormatNames().length, 18);
    assert.ok(propertyStringFormatNames().includes("pve-qm-ide"));
  });

  it("knows code formats and their -list / -opt variants", () => {
    assert.equal(isCodeFormat("pve-vmid"), true);
    assert.equal(isCodeFormat("mac-addr"), true);
    assert.deepEqual(codeFormat("pve-configid-list"), { base: "pve-configid", list: true, emptyAllowed: false });
    assert.deepEqual(codeFormat("email-opt"), { base: "email", list: false, emptyAllowed: true });
    assert.equal(isCodeFormat("pve-qm-boot"), false); // a property string
    assert.equal(isCodeFormat("pve-qm-boot-list"), false); // suffixes apply to code formats only
    assert.equal(isCodeFormat("no-such-format"), false);
  });

  it("resolves every named format the endpoints use", () => {
    const unknown = new Set<string>();
    const visit = (schema: ParamSchema | undefined): void => {
      if (!schema) return;
      if (typeof schema.format === "string") {
        if (!getFormat(schema.format) && !isCodeFormat(schema.format)) unknown.add(schema.format);
      } else if (schema.format) {
        Object.values(schema.format).forEach(visit);
      }
      Object.values(schema.properties ?? {}).forEach(visit);
      visit(schema.items);
      schema.oneOf?.forEach(visit);
    };
    for (const endpoint of allEndpoints()) {
      Object.values(endpoint.params).forEach(visit);
      visit(endpoint.returns);
    }
    assert.deepEqual([...unknown], []);
    assert.equal(getEndpoint("POST", "/nodes/{node}/qemu")?.params.boot?.format, "pve-qm-boot");
  });
});
