import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { allEndpoints, getEndpoint } from "../../src/schema/index.js";

describe("generated endpoint facts", () => {
  it("holds every endpoint of PVE 9.1: 649 on 431 paths, by method", () => {
    const endpoints = allEndpoints();
    assert.equal(endpoints.length, 649);
    assert.equal(new Set(endpoints.map((e) => e.path)).size, 431);
    const byMethod: Record<string, number> = {};
    for (const e of endpoints) byMethod[e.method] = (byMethod[e.method] ?? 0) + 1;
    assert.deepEqual(byMethod, { GET: 327, POST: 169, PUT: 79, DELETE: 74 });
  });

  it("carries no description prose from the AGPL schema", () => {
    const text = readFileSync(new URL("../../src/schema/generated/endpoints.json", import.meta.url), "utf8");
    const formats = readFileSync(new URL("../../src/schema/generated/formats.json", import.meta.url), "utf8");
    for (const key of ["verbose_description", "format_description", "typetext", "renderer", "links", "title"]) {
      assert.ok(!text.includes(`"${key}":`), `endpoints.json contains ${key}`);
      assert.ok(!formats.includes(`"${key}":`), `formats.json contains ${key}`);
    }
    // `description` may only appear as the *name* of a returned field or parameter,
    // whose value is a schema object, never as a prose string.
    assert.ok(!/"description":"/.test(text), "endpoints.json has a description string");
    assert.ok(!/"description":"/.test(formats), "formats.json has a description string");
    // A well-known sentence of the upstream schema must not be there.
    assert.ok(!text.includes("Specify network devices"));
  });

  it("keeps the permission check of PUT /nodes/{node}/qemu/{vmid}/config", () => {
    const endpoint = getEndpoint("PUT", "/nodes/{node}/qemu/{vmid}/config");
    assert.ok(endpoint);
    assert.deepEqual(endpoint.permissions, {
      check: [
        "perm",
        "/vms/{vmid}",
        [
          "VM.Config.Disk",
          "VM.Config.CDROM",
          "VM.Config.CPU",
          "VM.Config.Memory",
          "VM.Config.Network",
          "VM.Config.HWType",
          "VM.Config.Options",
          "VM.Config.Cloudinit",
        ],
        "any",
        1,
      ],
    });
    assert.equal(endpoint.protected, true);
    assert.equal(endpoint.proxyto, "node");
    assert.deepEqual(endpoint.returns, { type: "null" });
  });

  it("gives net[n] of qemu its real index range and its inline sub-schema with keyAlias", () => {
    const endpoint = getEndpoint("POST", "/nodes/{node}/qemu");
    const net = endpoint?.params["net[n]"];
    assert.ok(net);
    assert.deepEqual(net.index, { min: 0, max: 31 });
    assert.equal(net.optional, true);
    assert.ok(typeof net.format === "object");
    assert.deepEqual(net.format.virtio, { alias: "macaddr", keyAlias: "model" });
    assert.equal(net.format.model?.default_key, true);
    assert.ok(net.format.model?.enum?.includes("virtio"));
    assert.deepEqual(net.format.tag, { type: "integer", minimum: 1, maximum: 4094, optional: true });
    assert.equal(net.format.macaddr?.format, "mac-addr");
  });

  it("gives every indexed key of qemu and lxc the maxima of the source constants", () => {
    const ranges = (method: "POST" | "PUT", path: string): Record<string, number> => {
      const endpoint = getEndpoint(method, path);
      assert.ok(endpoint, path);
      const out: Record<string, number> = {};
      for (const [key, schema] of Object.entries(endpoint.params)) {
        if (schema.index) out[key] = schema.index.max;
      }
      return out;
    };
    assert.deepEqual(ranges("PUT", "/nodes/{node}/qemu/{vmid}/config"), {
      "hostpci[n]": 15,
      "ide[n]": 3,
      "ipconfig[n]": 31,
      "net[n]": 31,
      "numa[n]": 7,
      "parallel[n]": 2,
      "sata[n]": 5,
      "scsi[n]": 30,
      "serial[n]": 3,
      "unused[n]": 255,
      "usb[n]": 13,
      "virtio[n]": 15,
      "virtiofs[n]": 9,
    });
    assert.deepEqual(ranges("POST", "/nodes/{node}/lxc"), { "dev[n]": 255, "mp[n]": 255, "net[n]": 31, "unused[n]": 255 });
  });

  it("indexes returned fields too (GET qemu config)", () => {
    const returns = getEndpoint("GET", "/nodes/{node}/qemu/{vmid}/config")?.returns;
    assert.deepEqual(returns?.properties?.["scsi[n]"]?.index, { min: 0, max: 30 });
  });

  it("marks the endpoints tokens cannot call", () => {
    const notForTokens = allEndpoints()
      .filter((e) => !e.allowtoken)
      .map((e) => `${e.method} ${e.path}`)
      .sort();
    assert.deepEqual(notForTokens, [
      "DELETE /access/tfa/{userid}/{id}",
      "POST /access/tfa/{userid}",
      "POST /access/ticket",
      "PUT /access/password",
      "PUT /access/tfa/{userid}/{id}",
    ]);
    assert.equal(getEndpoint("POST", "/access/ticket")?.permissions?.user, "world");
  });

  it("leaves permissions out exactly on the 15 root@pam-only endpoints", () => {
    const rootOnly = allEndpoints()
      .filter((e) => e.permissions === undefined)
      .map((e) => `${e.method} ${e.path}`);
    assert.equal(rootOnly.length, 15);
    assert.ok(rootOnly.includes("POST /nodes/{node}/execute"));
    assert.ok(rootOnly.includes("PUT /nodes/{node}/disks/wipedisk"));
    assert.ok(rootOnly.includes("GET /cluster/backup-info"));
  });

  it("normalises Perl-isms: numeric strings, 0/1 flags and boolean defaults", () => {
    const create = getEndpoint("POST", "/nodes/{node}/qemu");
    assert.ok(create);
    assert.equal(create.params.bwlimit?.minimum, 0); // "0" in the source
    assert.equal(create.params.bwlimit?.default, undefined); // prose default dropped
    assert.equal(create.params.vmid?.optional, undefined); // required
    assert.equal(create.params.vmid?.format, "pve-vmid");
    assert.equal(create.params.onboot?.default, 0);
    assert.equal(create.params.onboot?.type, "boolean");
  });
});
