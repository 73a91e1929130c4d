// Checking spec files offline (`pvectl validate`, CI, pre-commit hooks): the same loader plan and
// apply use, and nothing else: no cluster, no credentials, no API client loaded.
import { loadSpecFiles, type SpecDocument, SpecError } from "../sources/spec/index.js";

export { describeCt, describeVm, formatPath, type SpecDocument, SpecError } from "../sources/spec/index.js";

/** The files' spec when they are valid, else every problem found in them (file:line:column). */
export type SpecValidation = { valid: true; spec: SpecDocument } | { valid: false; error: SpecError };

/** Errors that are not about the spec's content (a bug, say) are thrown, not reported as invalid. */
export async function validateSpecFiles(files: string[]): Promise<SpecValidation> {
  try {
    return { valid: true, spec: await loadSpecFiles(files) };
  } catch (err) {
    if (err instanceof SpecError) return { valid: false, error: err };
    throw err;
  }
}
