// pvectl's version, in one place: `pvectl --version` prints it and saved plans record it (a
// plan is only applied by the version that made it). test/engine/version.test.ts keeps it
// equal to package.json's.
export const PVECTL_VERSION = "0.1.0";
