// The `access:` section of a spec: what it becomes, and every refusal with its place
// (file:line:col: access.<list>[i].<field>: what is wrong and what to write instead).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseSpec, SpecError } from "../../src/sources/spec/index.js";

function problems(yaml: string): string {
  try {
    parseSpec(yaml, "/specs/access.yaml");
  } catch (err) {
    if (err instanceof SpecError) return err.message;
    throw err;
  }
  assert.fail("the spec was accepted");
}

describe("access spec", () => {
  it("normalizes every list: privileges sorted, dates to PVE's seconds, secret files next to the spec, defaults", () => {
    const spec = parseSpec(
      `
access:
  roles:
    - id: WebDeploy
      privileges: [VM.Config.CPU, VM.Allocate, VM.Allocate]
  groups: [{ id: web-team, comment: " web " }]
  users:
    - id: deploy@pve
      groups: [web-team]
      expire: 2027-06-30
  tokens:
    - { user: deploy@pve, name: ci, secretFile: secrets/ci.token }
  acls:
    - { path: /pool/web, role: WebDeploy, token: "deploy@pve!ci" }
  pools: []
`,
      "/specs/access.yaml",
    );
    const d = spec.access?.[0]?.desired;
    assert.deepEqual(d?.roles?.[0]?.privileges, ["VM.Allocate", "VM.Config.CPU"]);
    assert.equal(d?.groups?.[0]?.comment, "web");
    assert.equal(d?.users?.[0]?.expire, Date.UTC(2027, 5, 30) / 1000);
    assert.equal(d?.tokens?.[0]?.secretFile, "/specs/secrets/ci.token");
    assert.equal(d?.tokens?.[0]?.privsep, true);
    assert.deepEqual(
      { ...d?.acls?.[0], where: undefined },
      { path: "/pool/web", role: "WebDeploy", type: "token", ugid: "deploy@pve!ci", propagate: true, where: undefined },
    );
    assert.deepEqual(d?.pools, []);
    assert.equal(d?.users?.[0]?.groups?.[0], "web-team");
  });

  it("names an unknown privilege with its place, the closest match and PVE 9's list", () => {
    const text = problems(`
access:
  roles:
    - id: WebDeploy
      privileges: [VM.Allocate, VM.Audit, VM.Foo, VM.Aduit]
`);
    assert.match(
      text,
      /^\/specs\/access\.yaml:5:43: access\.roles\[0\]\.privileges\[2\]: unknown privilege 'VM\.Foo' \(.*PVE 9 privileges: Datastore\.Allocate, /m,
    );
    assert.match(text, /access\.roles\[0\]\.privileges\[3\]: unknown privilege 'VM\.Aduit' \(did you mean VM\.Audit\?/);
  });

  it("says what replaced a privilege PVE 9 removed", () => {
    assert.match(
      problems("access:\n  roles: [{ id: Mon, privileges: [VM.Monitor] }]\n"),
      /'VM\.Monitor' is not a PVE 9 privilege: removed in PVE 9: .*VM\.GuestAgent/,
    );
  });

  it("refuses built-in role names and PVE's role namespace in any case", () => {
    assert.match(problems("access:\n  roles: [{ id: PVEAdmin, privileges: [] }]\n"), /'PVEAdmin' is a built-in role of PVE/);
    assert.match(problems("access:\n  roles: [{ id: Administrator, privileges: [] }]\n"), /built-in role/);
    assert.match(
      problems("access:\n  roles: [{ id: PvectlWeb, privileges: [] }]\n"),
      /'PvectlWeb' is refused by PVE: role ids starting with 'Pve'/,
    );
  });

  it("refuses root@pam, a bad ACL path, several subjects, a bad date and an unknown key", () => {
    assert.match(problems("access:\n  users: [{ id: root@pam }]\n"), /access\.users\[0\]\.id: root@pam is PVE's superuser/);
    assert.match(
      problems("access:\n  acls: [{ path: /vm/100, role: PVEAuditor, user: a@pve }]\n"),
      /access\.acls\[0\]\.path: '\/vm\/100' is not an ACL path/,
    );
    assert.match(
      problems("access:\n  acls: [{ path: /, role: PVEAuditor, user: a@pve, group: g }]\n"),
      /access\.acls\[0\]: give exactly one of/,
    );
    assert.match(
      problems("access:\n  users: [{ id: a@pve, expire: 2027-02-30 }]\n"),
      /access\.users\[0\]\.expire: '2027-02-30' is not a date/,
    );
    assert.match(problems("access:\n  tokens: [{ user: a@pve, name: ci, secret: x }]\n"), /secret/);
  });

  it("refuses an id declared twice across files' lists", () => {
    assert.match(problems("access:\n  groups: [{ id: g }, { id: g }]\n"), /group g \(.*\) is also declared at/);
  });
});
