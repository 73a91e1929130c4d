// The files an access section would have pvectl write: each new API token's secretFile. The
// registry hands them to the spec-side check (sources/written-files.ts), which refuses those
// outside what the operator's secret policy allows, naming the token and its place.
import type { WrittenFile } from "../object-family.js";
import type { AccessSpec } from "./spec-normalize.js";

export function tokenSecretFiles(sections: AccessSpec[]): WrittenFile[] {
  return sections.flatMap((section) =>
    (section.desired.tokens ?? []).flatMap((token) =>
      token.secretFile === undefined
        ? []
        : [
            {
              path: token.secretFile,
              specFile: section.source.file,
              entry: `token ${token.user}!${token.name} (${token.where ?? section.source.file})`,
              key: "secretFile",
            },
          ],
    ),
  );
}
