// The vocabulary a spec section's checks report in, shared by the spec loader (sources/spec/)
// and the sections the guest kinds and object families declare: where a value was written,
// the path to it inside a document, and the sink its problems go to.

/** Where something was written, for messages ("web.yaml:12:5"). Line and column are 1-based. */
export interface SourceLocation {
  file: string;
  line: number;
  column: number;
}

export type SpecPath = ReadonlyArray<string | number>;

export interface SpecIssue {
  /** Where the problem is; undefined only when the file itself could not be read. */
  location?: SourceLocation;
  /** Without a location: the file the problem is about, which places it in the list. */
  file?: string;
  /** Path inside the document, e.g. ["vms", 0, "disks", "scsi0", "size"]. */
  path: SpecPath;
  message: string;
}

/** Where a section's normalisation reports a problem: the path it is about, and whether the key or the value is wrong. */
export interface IssueSink {
  add(path: SpecPath, message: string, part?: "key" | "value"): void;
}
