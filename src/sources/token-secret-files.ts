// Where a new API token's secret may be written: a spec names the file (`secretFile`), and a
// spec is untrusted (secret-policy.ts), so the file must land in the spec file's own directory
// tree or a --secrets-dir, like every secret file a spec names. Checked with the operator's
// policy before any client exists, each refusal with the entry's file:line.
import { PvectlError } from "../util/errors.js";
import { type SecretPolicy, writtenFileRefusal } from "./secret-policy.js";
import type { AccessSpec } from "./spec/index.js";

/** Token secret files the policy refuses; says which token, where, why and what to do. */
export class SecretFileRefusedError extends PvectlError {
  readonly kind = "connection-config";

  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
    this.name = "SecretFileRefusedError";
  }
}

/** Throws SecretFileRefusedError listing every token whose secretFile lies outside what the policy allows. */
export function checkTokenSecretFiles(access: AccessSpec[], policy: SecretPolicy): void {
  const problems: string[] = [];
  for (const section of access) {
    for (const token of section.desired.tokens ?? []) {
      if (token.secretFile === undefined) continue;
      const refusal = writtenFileRefusal(token.secretFile, section.source.file, policy);
      if (refusal)
        problems.push(
          `token ${token.user}!${token.name} (${token.where ?? section.source.file}): secretFile: refusing to write ${refusal}`,
        );
    }
  }
  if (problems.length > 0) throw new SecretFileRefusedError(problems);
}
