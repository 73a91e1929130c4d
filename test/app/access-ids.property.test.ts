// User and token ids: `access check --token`, `access needs --user/--token` and the spec's
// `access:` users, tokens and ACL subjects accept exactly the ids PVE accepts (pve-access-control
// verify_username / pve_verify_tokenid: realm and token name a letter and at least one more
// character, a user id of 3 to 64 characters), and name the value they refuse. The simulator's
// own pve-userid check (POST /access/users) is the second opinion on every random id.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import { stringify } from "yaml";
import { PveClient } from "../../src/api/index.js";
import { checkAuthId } from "../../src/app/access.js";
import { tokenIdProblem, userIdProblem } from "../../src/pve/auth-id.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { parseSpec } from "../../src/sources/spec/index.js";

const realmChar = fc.constantFrom(..."abcXYZ019.-_");
const letter = fc.constantFrom(..."abcdXYZ");
/** Realms (and token names), valid or not: a one-character realm is the case that slipped through. */
const realm = fc.oneof(
  fc.tuple(letter, fc.array(realmChar, { minLength: 1, maxLength: 6 })).map(([a, rest]) => a + rest.join("")),
  letter,
  fc.tuple(fc.constantFrom("1", "-", "."), fc.array(realmChar, { maxLength: 3 })).map(([a, rest]) => a + rest.join("")),
);
const userPart = fc.oneof(
  fc.stringMatching(/^[a-z][a-z0-9._-]{0,8}$/),
  fc.stringMatching(/^[a-z]{60,62}$/),
  fc.constantFrom("a b", "x:y", "p/q"),
);
const userId = fc.tuple(userPart, realm).map(([u, r]) => `${u}@${r}`);

/** PVE's rule, said independently of the code under test. */
function pveAcceptsUser(id: string): boolean {
  const at = id.lastIndexOf("@");
  const [user, r] = [id.slice(0, at), id.slice(at + 1)];
  return id.length >= 3 && id.length <= 64 && /^[^\s:/@!]+$/.test(user) && /^[A-Za-z][A-Za-z0-9.\-_]+$/.test(r);
}

function specWithUser(id: string): string {
  return stringify({ access: { users: [{ id }], acls: [{ path: "/vms/100", role: "PVEAuditor", user: id }] } });
}

describe("user and token ids", () => {
  let sim: RunningSimulator;
  let root: PveClient;
  before(async () => {
    sim = await startSimulator({ port: 0, seed: 5 });
    root = new PveClient({ host: "127.0.0.1", port: sim.port, user: "root@pam", password: sim.rootPassword, fingerprint: sim.fingerprint });
  });
  after(async () => {
    await root.close();
    await sim.close();
  });

  it("user ids: pvectl, the spec and the simulator accept the same ones, and refusals name the value", async () => {
    await fc.assert(
      fc.asyncProperty(userId, async (id) => {
        const ok = pveAcceptsUser(id);
        assert.equal(userIdProblem(id) === undefined, ok, id);
        if (ok) checkAuthId(id);
        else
          assert.throws(
            () => checkAuthId(id),
            (e: Error) => e.message.includes(`'${id}'`),
          );
        const parsed = (() => {
          try {
            parseSpec(specWithUser(id), "ids.yaml");
            return undefined;
          } catch (e) {
            return (e as Error).message;
          }
        })();
        assert.equal(parsed === undefined, ok, `${id}: ${parsed}`);
        if (parsed !== undefined) assert.ok(parsed.includes(id), parsed);
        // The simulator checks pve-userid as PVE does (400 on the format; an unknown realm is a
        // 500 after it); it may be laxer only where pvectl is stricter by choice ('@', '!').
        const formatOk = await root.request("POST", "/access/users", { userid: id }).then(
          async () => {
            await root.request("DELETE", `/access/users/${encodeURIComponent(id)}`);
            return true;
          },
          (e: { status?: number }) => e.status !== 400,
        );
        if (ok) assert.equal(formatOk, true, `the simulator refused ${id}`);
        else if (!/[@!]/.test(id.slice(0, id.lastIndexOf("@")))) assert.equal(formatOk, false, `the simulator took ${id}`);
      }),
      { seed: 2026, numRuns: 150 },
    );
  });

  it("token ids: the realm and the token name each need two characters, the user its 3 to 64", () => {
    fc.assert(
      fc.property(userId, realm, (user, name) => {
        const id = `${user}!${name}`;
        const ok = pveAcceptsUser(user) && /^[A-Za-z][A-Za-z0-9.\-_]+$/.test(name);
        assert.equal(tokenIdProblem(id) === undefined, ok, id);
        if (ok) checkAuthId(id);
        else
          assert.throws(
            () => checkAuthId(id),
            (e: Error) => e.message.includes(`'${id}'`),
          );
      }),
      { seed: 7, numRuns: 300 },
    );
  });

  it("access check names a one-character realm instead of asking PVE about it", () => {
    assert.throws(
      () => checkAuthId("deploy@p!ci"),
      /'deploy@p!ci' is not a user or token id PVE accepts: realm 'p' of 'deploy@p' is not one PVE accepts/,
    );
    assert.throws(() => checkAuthId("deploy@pve!c"), /token name 'c'/);
    assert.throws(() => checkAuthId(`${"a".repeat(61)}@pve`), /too long \(65 > 64\)/);
  });
});
