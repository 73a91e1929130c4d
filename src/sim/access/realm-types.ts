// Which domains.cfg keys each realm type accepts (pve-access-control PVE/Auth/PAM.pm, PVE.pm,
// LDAP.pm, AD.pm, OpenId.pm `options`): a key outside its type's list is refused as PVE's
// SectionConfig check_config refuses it, a required key missing on create likewise.

export interface RealmTypeOptions {
  required: string[];
  optional: string[];
  /** `fixed` options: settable on create, refused on update. */
  fixed?: string[];
}

const BUILTIN: RealmTypeOptions = { required: [], optional: ["default", "comment", "tfa"] };

const LDAP_COMMON = [
  "server2",
  "bind_dn",
  "password",
  "port",
  "secure",
  "sslversion",
  "default",
  "comment",
  "tfa",
  "verify",
  "capath",
  "cert",
  "certkey",
  "filter",
  "sync_attributes",
  "user_classes",
  "group_dn",
  "group_name_attr",
  "group_filter",
  "group_classes",
  "sync-defaults-options",
  "mode",
  "case-sensitive",
];

export const REALM_TYPES: Record<string, RealmTypeOptions> = {
  pam: BUILTIN,
  pve: BUILTIN,
  ldap: { required: ["server1", "base_dn", "user_attr"], optional: LDAP_COMMON },
  ad: { required: ["server1", "domain"], optional: [...LDAP_COMMON, "base_dn", "user_attr"] },
  openid: {
    required: ["issuer-url", "client-id"],
    optional: [
      "client-key",
      "autocreate",
      "username-claim",
      "groups-claim",
      "groups-autocreate",
      "groups-overwrite",
      "prompt",
      "scopes",
      "acr-values",
      "default",
      "comment",
      "query-userinfo",
    ],
    fixed: ["username-claim"],
  },
};

/** The realms a PVE node always has: parse_config re-adds them, so deleting one only resets it. */
export const BUILTIN_REALMS: Record<string, { type: string; comment: string }> = {
  pam: { type: "pam", comment: "Linux PAM standard authentication" },
  pve: { type: "pve", comment: "Proxmox VE authentication server" },
};
