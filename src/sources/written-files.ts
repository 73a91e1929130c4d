// Where a file a spec asks pvectl to write may land (a new API token's secretFile, named by
// the family that writes it): a spec is untrusted (secret-policy.ts), so the file must land in
// the spec file's own directory tree or a --secrets-dir, like every secret file a spec names.
// Checked with the operator's policy before any client exists, each refusal with the entry's
// file:line.
import type { WrittenFile } from "../resources/objects.js";
import { PvectlError } from "../util/errors.js";
import { type SecretPolicy, writtenFileRefusal } from "./secret-policy.js";

/** Files the policy refuses; says which entry, where, why and what to do. */
export class SecretFileRefusedError extends PvectlError {
  readonly kind = "connection-config";

  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
    this.name = "SecretFileRefusedError";
  }
}

/** Throws SecretFileRefusedError listing every file that lies outside what the policy allows. */
export function checkWrittenFiles(files: WrittenFile[], policy: SecretPolicy): void {
  const problems = files.flatMap((file) => {
    const refusal = writtenFileRefusal(file.path, file.specFile, policy);
    return refusal ? [`${file.entry}: ${file.key}: refusing to write ${refusal}`] : [];
  });
  if (problems.length > 0) throw new SecretFileRefusedError(problems);
}
