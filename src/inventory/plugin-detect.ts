// What tells the community plugin's file from pvectl's, on its own: reading a pvectl
// configuration does not need plugin-config.ts and the expression engine it brings.

/** What a `!vault` value becomes: pvectl cannot decrypt Ansible Vault. */
export class VaultValue {}

export function isPluginConfig(raw: unknown): raw is Record<string, unknown> {
  return typeof raw === "object" && raw !== null && !Array.isArray(raw) && "plugin" in raw;
}
