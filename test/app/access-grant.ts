// Grants an `access:` section (roles and ACL entries, as `pvectl access needs --format spec`
// writes it) through the API as root, and makes the token it names. A stand-in until the
// access section is applied by pvectl itself (then: pvectl apply of the generated spec).
import { PveClient } from "../../src/api/index.js";
import type { AccessSpec } from "../../src/app/access.js";

export async function grantAccess(root: PveClient, spec: AccessSpec): Promise<void> {
  for (const role of spec.roles) await root.request("POST", "/access/roles", { roleid: role.id, privs: role.privileges.join(",") });
  for (const acl of spec.acls) {
    const subject = acl.token !== undefined ? { tokens: acl.token } : acl.user !== undefined ? { users: acl.user } : { groups: acl.group };
    await root.request("PUT", "/access/acl", { path: acl.path, roles: acl.role, propagate: acl.propagate ? 1 : 0, ...subject });
  }
}

/** Makes user@realm and its privilege-separated token; the token's secret. */
export async function makeToken(root: PveClient, tokenId: string): Promise<string> {
  const [userid, name] = tokenId.split("!") as [string, string];
  await root.request("POST", "/access/users", { userid });
  const made = (await root.request("POST", `/access/users/${encodeURIComponent(userid)}/token/${name}`, { privsep: 1 })) as { value: string };
  return made.value;
}

export function tokenClient(url: string, tokenId: string, tokenSecret: string): PveClient {
  const u = new URL(url);
  return new PveClient({ host: u.hostname, port: Number(u.port), protocol: "http", tokenId, tokenSecret });
}

export async function setRolePrivileges(root: PveClient, roleid: string, privileges: string[]): Promise<void> {
  await root.request("PUT", `/access/roles/${roleid}`, { privs: privileges.join(",") });
}
