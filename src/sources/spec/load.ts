// Reads spec files into one normalized SpecDocument, or throws a SpecError that lists every
// problem of every file (file:line:column, path, message). Nothing here talks to a cluster,
// so an invalid spec can never send anything.
import { readdir, readFile, stat } from "node:fs/promises";
import type { z } from "zod";
import { dirname, join, resolve } from "node:path";
import { normalizeFingerprint } from "../../api/options.js";
import { SpecError, type SpecIssue, type SpecPath } from "./errors.js";
import { guestSectionKeyMessage, specIssuesFromZod } from "./issues.js";
import { MAX_SPEC_BYTES, tooLargeMessage } from "./limits.js";
import type { ConnectionSpec, SourceLocation, SpecDocument } from "./model.js";
import { checkedEntry, hasIssueUnder } from "./checked-entries.js";
import type { IssueSink } from "../../resources/spec-section/issues.js";
import { withoutProtoKeys } from "../../resources/spec-section/own.js";
import { type RawConnection, specSchemas } from "./raw-schema.js";
import { SchemaMemo } from "./schema-memo.js";
import { didYouMean } from "../../resources/spec-section/suggest.js";
import { mergeObjectSections, readObjectSections, type SectionEntry } from "../../resources/objects.js";
import { type AnyGuestKind, type GuestSections, type GuestSpec, guestKinds, kindOfSpec } from "../../resources/index.js";
import { parseYaml, type YamlDocument } from "./yaml-source.js";

/** One file's contribution before the files are merged. */
interface FileContents {
  connections: ConnectionSpec[];
  /** Every name under `connections:`, valid or not: a guest naming an invalid one is not told it is undefined. */
  declaredConnections: Array<{ name: string; source: SourceLocation }>;
  /** Each guest kind's entries the file writes, by section key (resources/index.ts). */
  guests: Map<string, GuestSpec[]>;
  /** The object families' sections the file writes, by key (resources/objects.ts). */
  objects: Map<string, SectionEntry[]>;
  issues: SpecIssue[];
}

type Guest = GuestSpec;

function emptyContents(issues: SpecIssue[] = []): FileContents {
  return { connections: [], declaredConnections: [], guests: new Map(), objects: new Map(), issues };
}

/** Values the schema accepted, across files: a spec written from a template repeats most of them. */
const fileMemo = new SchemaMemo();

/** Where each guest sits in its YAML document, for messages about its fields after merging. */
const vmPlaces = new WeakMap<Guest, { doc: YamlDocument; path: SpecPath }>();

function describeGuest(guest: Guest): string {
  return kindOfSpec(guest.kind).spec.describe(guest);
}

/** "VM", "container", or "guest" when guests of two kinds collide. */
function nounOf(a: Guest, b: Guest): string {
  if (a.kind !== b.kind) return "guest";
  return kindOfSpec(a.kind).noun;
}

function vmIssue(vm: Guest, field: string, message: string): SpecIssue {
  const place = vmPlaces.get(vm);
  if (!place) return { location: vm.source, path: [field], message };
  const path = [...place.path, field];
  return { location: place.doc.locate(path), path, message };
}

function sinkFor(doc: YamlDocument, issues: SpecIssue[]): IssueSink {
  return { add: (path, message, part) => issues.push({ location: doc.locate(path, part), path, message }) };
}

function where(location: SourceLocation): string {
  return `${location.file}:${location.line}:${location.column}`;
}

function normalizeConnection(
  name: string,
  raw: RawConnection,
  path: SpecPath,
  doc: YamlDocument,
  baseDir: string,
  sink: IssueSink,
): ConnectionSpec | undefined {
  let failed = false;
  const report = (sub: string, message: string): void => {
    failed = true;
    sink.add([...path, sub], message, "key");
  };
  if (raw.passwordEnv && raw.passwordFile)
    report("passwordFile", "give the password either by `passwordEnv` or by `passwordFile`, not both");
  if (raw.tokenSecretEnv && raw.tokenSecretFile)
    report("tokenSecretFile", "give the token secret either by `tokenSecretEnv` or by `tokenSecretFile`, not both");
  const hasPassword = Boolean(raw.passwordEnv || raw.passwordFile);
  const hasTokenSecret = Boolean(raw.tokenSecretEnv || raw.tokenSecretFile);
  if (raw.tokenId && !hasTokenSecret)
    report("tokenId", "an API token needs its secret: add `tokenSecretEnv: VARIABLE` or `tokenSecretFile: path`");
  if (hasTokenSecret && !raw.tokenId)
    report(raw.tokenSecretEnv ? "tokenSecretEnv" : "tokenSecretFile", "a token secret needs `tokenId` (the token's name)");
  if (hasPassword && !raw.user) report(raw.passwordEnv ? "passwordEnv" : "passwordFile", "a password needs `user` (e.g. root@pam)");
  if (!hasPassword && !hasTokenSecret && !raw.tokenId) {
    failed = true;
    sink.add(
      path,
      "no credentials: give an API token (`tokenId` + `tokenSecretEnv` or `tokenSecretFile`, recommended) or `user` + `passwordEnv` / `passwordFile`",
      "key",
    );
  }
  if (failed) return undefined;
  const connection: ConnectionSpec = { name, host: raw.host, source: doc.locate(path, "key") };
  if (raw.port !== undefined) connection.port = raw.port;
  if (raw.user !== undefined) connection.user = raw.user;
  if (raw.tokenId !== undefined) connection.tokenId = raw.tokenId;
  if (raw.passwordEnv !== undefined) connection.passwordEnv = raw.passwordEnv;
  if (raw.tokenSecretEnv !== undefined) connection.tokenSecretEnv = raw.tokenSecretEnv;
  // Paths in a spec are relative to the spec file, not to wherever pvectl was started.
  if (raw.passwordFile !== undefined) connection.passwordFile = resolve(baseDir, raw.passwordFile);
  if (raw.tokenSecretFile !== undefined) connection.tokenSecretFile = resolve(baseDir, raw.tokenSecretFile);
  if (raw.caPath !== undefined) connection.caPath = resolve(baseDir, raw.caPath);
  if (raw.fingerprint !== undefined) connection.fingerprint = normalizeFingerprint(raw.fingerprint);
  if (raw.validateCerts !== undefined) connection.validateCerts = raw.validateCerts;
  return connection;
}

/** Top-level `x-...` keys hold YAML anchors for reuse (`<<: *defaults`); they declare nothing. */
export function withoutExtensionKeys(data: unknown): unknown {
  if (data === null || typeof data !== "object" || Array.isArray(data)) return data;
  return Object.fromEntries(Object.entries(data).filter(([key]) => !key.startsWith("x-")));
}

/**
 * One guest kind's section of a file: each entry that passed the shape check on its own is
 * normalized even when a sibling failed, so one run reports as much as possible.
 */
function readGuestSection(
  kind: AnyGuestKind,
  section: unknown,
  checkedSection: unknown,
  zodIssues: readonly z.core.$ZodIssue[],
  doc: YamlDocument,
  out: FileContents,
): void {
  if (!Array.isArray(section)) return;
  const { key } = kind.spec;
  const sink = sinkFor(doc, out.issues);
  const entries = out.guests.get(key) ?? [];
  out.guests.set(key, entries);
  section.forEach((raw, index) => {
    const path = [key, index];
    if (hasIssueUnder(zodIssues, path)) return;
    const checked = checkedEntry(kind.spec.schema(), (checkedSection as unknown[] | undefined)?.[index], raw);
    if (checked === undefined) return;
    const guest = kind.spec.normalize(checked, path, doc.locate(path), sink);
    if (guest === undefined) return;
    // A guest with problems still meets the checks across guests (vmid, name, connection):
    // the spec is refused as a whole anyway, and its next run would only report those.
    vmPlaces.set(guest, { doc, path });
    entries.push(guest);
  });
}

function readDocument(doc: YamlDocument, file: string, out: FileContents): void {
  const protoKeys: SpecPath[] = [];
  const data = withoutProtoKeys(withoutExtensionKeys(doc.value), protoKeys);
  for (const path of protoKeys) out.issues.push({ location: doc.locate(path, "key"), path, message: "unknown key `__proto__`" });
  if (data === undefined || data === null) return; // an empty document declares nothing
  const schemas = specSchemas();
  // A file zod would accept is walked along its schema, each distinct value checked once
  // (schema-memo.ts); anything else gets zod's own check of the whole file, which words the issues.
  // Without zod's compiled fast path: a CLI run checks the file once, and compiling each object
  // schema into code and running that cold took twice as long (bench/startup.ts, 3,000 VMs).
  const accepted = fileMemo.check(schemas.file, data);
  const parsed = accepted
    ? ({ success: true, data: accepted.data as Record<string, unknown> } as const)
    : schemas.file.safeParse(data, { jitless: true });
  const zodIssues = parsed.success ? [] : parsed.error.issues;
  // When the whole file passed, its entries are already checked (checking each again doubled
  // the schema work of a large spec); after a failure there is no checked data to take them from.
  const fileData: Record<string, unknown> | undefined = parsed.success ? parsed.data : undefined;
  out.issues.push(...specIssuesFromZod(zodIssues, schemas.file, data, doc, guestSectionKeyMessage));
  if (typeof data !== "object" || Array.isArray(data)) return;
  const record = data as Record<string, unknown>;
  const sink = sinkFor(doc, out.issues);
  const baseDir = dirname(resolve(file));

  // Entries that passed the shape check on their own are checked further even when a sibling
  // failed, so one run reports as much as possible.
  if (record.connections && typeof record.connections === "object") {
    for (const [name, raw] of Object.entries(record.connections as Record<string, unknown>)) {
      const path = ["connections", name];
      out.declaredConnections.push({ name, source: doc.locate(path, "key") });
      if (hasIssueUnder(zodIssues, path)) continue;
      const checked = schemas.connection.safeParse(raw);
      if (!checked.success) continue;
      const connection = normalizeConnection(name, checked.data, path, doc, baseDir, sink);
      if (connection) out.connections.push(connection);
    }
  }
  for (const kind of guestKinds()) readGuestSection(kind, record[kind.spec.key], fileData?.[kind.spec.key], zodIssues, doc, out);
  // Each registered object family reads its own section (backupJobs, access ...).
  const sections = readObjectSections(record, (raw, key) => ({
    raw,
    checked: fileData?.[key],
    hasIssueUnder: (path) => hasIssueUnder(zodIssues, path),
    locate: (path, part) => doc.locate(path, part),
    sink,
    baseDir,
  }));
  for (const [key, entries] of sections) out.objects.set(key, [...(out.objects.get(key) ?? []), ...entries]);
}

function parseFile(text: string, file: string): FileContents {
  const out = emptyContents();
  const yaml = parseYaml(text, file);
  out.issues.push(...yaml.issues);
  for (const doc of yaml.documents) readDocument(doc, file, out);
  return out;
}

/** Merges files: connection names and VM identities must be unique across all of them. */
function merge(files: string[], contents: FileContents[]): SpecDocument {
  const issues = contents.flatMap((c) => c.issues);
  // Maps: a connection named like an Object member (`constructor`) must not find one.
  // Names count as defined even when their definition has problems (those are reported already).
  const declared = new Map<string, SourceLocation>();
  for (const { name, source } of contents.flatMap((c) => c.declaredConnections)) {
    const previous = declared.get(name);
    if (previous) {
      issues.push({
        location: source,
        path: ["connections", name],
        message: `connection \`${name}\` is also defined at ${where(previous)}; give each connection one definition`,
      });
    } else {
      declared.set(name, source);
    }
  }
  const connections = new Map<string, ConnectionSpec>();
  for (const connection of contents.flatMap((c) => c.connections)) {
    if (!connections.has(connection.name)) connections.set(connection.name, connection);
  }
  const names = [...declared.keys()].sort();
  // Guests of every kind share one vmid space (PVE's) and, as identities, one name space.
  const guests: Guest[] = [];
  const byVmid = new Map<string, Guest>();
  const byName = new Map<string, Guest>();
  // Per file, each kind's entries in registry order (VMs, then containers).
  const all = contents.flatMap((c) => guestKinds().flatMap((kind) => c.guests.get(kind.spec.key) ?? []));
  for (const vm of all) {
    const nameField = kindOfSpec(vm.kind).spec.nameField;
    if (vm.connection !== undefined && !declared.has(vm.connection)) {
      const known =
        names.length > 0
          ? ` (defined: ${names.join(", ")})`
          : " (no connections are defined; leave `connection` out to use the PROXMOX_* environment variables)";
      issues.push(
        vmIssue(
          vm,
          "connection",
          `${describeGuest(vm)} names connection \`${vm.connection}\`, which no spec file defines${didYouMean(vm.connection, names) || known}`,
        ),
      );
      continue;
    }
    if (vm.connection === undefined && names.length === 1) vm.connection = names[0];
    if (vm.connection === undefined && names.length > 1) {
      issues.push(
        vmIssue(
          vm,
          "connection",
          `${describeGuest(vm)} names no connection, and the spec defines several (${names.join(", ")}): add \`connection: <name>\``,
        ),
      );
      continue;
    }
    const scope = vm.connection ?? "";
    const scopeText = vm.connection === undefined ? "" : ` on connection \`${vm.connection}\``;
    // The vmid and the name are checked apart: a guest repeating both is told both at once.
    const vmidKey = `${scope}\u0000${vm.vmid}`;
    const previous = vm.vmid === undefined ? undefined : byVmid.get(vmidKey);
    if (previous) {
      issues.push(
        vmIssue(
          vm,
          "vmid",
          `vmid ${vm.vmid}${scopeText} is declared twice: here (${vm.name}) and at ${where(previous.source)} (${previous.name}); a vmid identifies one ${nounOf(vm, previous)}`,
        ),
      );
    } else if (vm.vmid !== undefined) {
      byVmid.set(vmidKey, vm);
    }
    const nameKey = `${scope}\u0000${vm.name}`;
    const sameName = byName.get(nameKey);
    if (sameName) {
      issues.push(
        vmIssue(
          vm,
          nameField,
          `the name ${vm.name}${scopeText} is used twice: here and at ${where(sameName.source)}; give each ${nounOf(vm, sameName)} its own name (PVE allows duplicates, which makes names useless for finding a ${nounOf(vm, sameName)})`,
        ),
      );
    } else {
      byName.set(nameKey, vm);
    }
    if (!previous && !sameName) guests.push(vm);
  }
  const objects = mergeObjectSections(
    contents.map((c) => c.objects),
    names,
    issues,
  );
  if (issues.length > 0) throw new SpecError(issues, files);
  // Each kind's section holds its own entries (every kind's, even when no file writes it).
  const sections = Object.fromEntries(guestKinds().map((kind) => [kind.spec.key, guests.filter((g) => g.kind === kind.specKind)]));
  return {
    files,
    connections: Object.fromEntries(connections),
    ...(sections as GuestSections),
    ...objects,
  };
}

/** Parses one spec text (file name for messages); throws SpecError listing every problem. */
export function parseSpec(text: string, fileName: string): SpecDocument {
  return merge([fileName], [parseFile(text, fileName)]);
}

/**
 * The files to read: a directory stands for its `*.yaml` / `*.yml` files (sorted, not
 * recursive); a file given twice is read once.
 */
async function expandPaths(paths: string[]): Promise<string[]> {
  const files: string[] = [];
  const seen = new Set<string>();
  const add = (file: string): void => {
    const key = resolve(file);
    if (seen.has(key)) return;
    seen.add(key);
    files.push(file);
  };
  for (const path of paths) {
    const info = await stat(path).catch(() => undefined);
    if (info?.isDirectory()) {
      const entries = (await readdir(path)).filter((name) => /\.ya?ml$/.test(name)).sort();
      for (const name of entries) add(join(path, name));
    } else {
      add(path);
    }
  }
  return files;
}

/** Reads and merges spec files (or directories of them); throws SpecError listing every problem of every file. */
export async function loadSpecFiles(paths: string[]): Promise<SpecDocument> {
  const contents: FileContents[] = [];
  const files = await expandPaths(paths);
  for (const path of files) {
    let text: string;
    try {
      // The size is checked before the file is read, so a huge file costs neither time nor memory.
      const { size } = await stat(path);
      if (size > MAX_SPEC_BYTES) {
        contents.push(emptyContents([{ location: { file: path, line: 1, column: 1 }, path: [], message: tooLargeMessage(size) }]));
        continue;
      }
      text = await readFile(path, "utf8");
    } catch (err) {
      const reason = (err as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (err as Error).message;
      contents.push(emptyContents([{ file: path, path: [], message: `cannot read spec file ${path}: ${reason}` }]));
      continue;
    }
    contents.push(parseFile(text, path));
  }
  return merge(files, contents);
}
