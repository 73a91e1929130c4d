// Response bodies as Buffers, encoded in slices. Node writes a large string to a socket an
// order of magnitude slower than the same bytes as Buffers, and one multi-megabyte Buffer per
// call faults in fresh pages every time; /cluster/resources with 10,000 guests is 2.6 MB.
// The bytes are exactly those of JSON.stringify(body); a JsonList `data` is written part by
// part, its runs produced a slice at a time.
import { JsonList, type JsonRun } from "../contract.js";

/** Array elements serialised per slice: about 50 KiB of JSON for /cluster/resources entries. */
const ELEMENTS_PER_SLICE = 200;

/** JSON.stringify writes undefined, functions and symbols inside arrays as null; so does this. */
function arrayRun(items: unknown[]): JsonRun {
  return { length: items.length, text: (start, end) => JSON.stringify(items.slice(start, end)).slice(1, -1) };
}

/** What follows the `data` array: its end, the envelope's other keys, the envelope's end. */
function closing(rest: Record<string, unknown>): string {
  const tail = JSON.stringify(rest);
  return tail === "{}" ? "]}" : `],${tail.slice(1)}`;
}

export function jsonBody(body: Record<string, unknown>): Buffer[] {
  const { data, ...rest } = body;
  const listed = data instanceof JsonList || Array.isArray(data);
  // `data` comes first in every envelope ok() builds; anything else is written in one piece
  if (!listed || Object.keys(body)[0] !== "data") return [Buffer.from(JSON.stringify(body))];
  const runs = (data instanceof JsonList ? data.parts : [data as unknown[]]).map((part) => (Array.isArray(part) ? arrayRun(part) : part));
  const total = runs.reduce((sum, run) => sum + run.length, 0);
  if (total <= ELEMENTS_PER_SLICE) {
    const text = runs
      .filter((run) => run.length > 0)
      .map((run) => run.text(0, run.length))
      .join(",");
    return [Buffer.from(`{"data":[${text}${closing(rest)}`)];
  }
  // Each slice becomes a Buffer at once, so its string dies young instead of all of them
  // living until the end (promoted by the GC, to wait for a full collection).
  const chunks: Buffer[] = [Buffer.from('{"data":[')];
  let first = true;
  for (const run of runs) {
    for (let start = 0; start < run.length; start += ELEMENTS_PER_SLICE) {
      const text = run.text(start, Math.min(run.length, start + ELEMENTS_PER_SLICE));
      chunks.push(Buffer.from(first ? text : `,${text}`));
      first = false;
    }
  }
  chunks.push(Buffer.from(closing(rest)));
  return chunks;
}
