// Response bodies as Buffers, encoded in slices. Node writes a large string to a socket an
// order of magnitude slower than the same bytes as Buffers, and one multi-megabyte Buffer per
// call faults in fresh pages every time; /cluster/resources with 10,000 guests is 2.6 MB.
// The bytes are exactly those of JSON.stringify(body), except that RawJson elements of the
// `data` array are written as the text they carry.
import { RawJson } from "../contract.js";

/** Array elements serialised per slice: about 50 KiB of JSON for /cluster/resources entries. */
const ELEMENTS_PER_SLICE = 200;

function sliceText(slice: unknown[]): string {
  if (!slice.some((e) => e instanceof RawJson)) return JSON.stringify(slice).slice(1, -1);
  // JSON.stringify writes undefined, functions and symbols inside arrays as null
  return slice.map((e) => (e instanceof RawJson ? e.text : (JSON.stringify(e) ?? "null"))).join(",");
}

/** What follows the `data` array: its end, the envelope's other keys, the envelope's end. */
function closing(rest: Record<string, unknown>): string {
  const tail = JSON.stringify(rest);
  return tail === "{}" ? "]}" : `],${tail.slice(1)}`;
}

export function jsonBody(body: Record<string, unknown>): Buffer[] {
  const { data, ...rest } = body;
  // `data` comes first in every envelope ok() builds; anything else is written in one piece,
  // as is any array short enough to be one slice
  if (!Array.isArray(data) || Object.keys(body)[0] !== "data") return [Buffer.from(JSON.stringify(body))];
  if (data.length <= ELEMENTS_PER_SLICE) {
    const text = sliceText(data);
    return [Buffer.from(`{"data":[${text}${closing(rest)}`)];
  }
  // Each slice becomes a Buffer at once, so its string dies young instead of all of them
  // living until the end (5 MB at the peak for /cluster/resources, promoted by the GC).
  const chunks: Buffer[] = [Buffer.from('{"data":[')];
  for (let start = 0; start < data.length; start += ELEMENTS_PER_SLICE) {
    const text = sliceText(data.slice(start, start + ELEMENTS_PER_SLICE));
    chunks.push(Buffer.from(start === 0 ? text : `,${text}`));
  }
  chunks.push(Buffer.from(closing(rest)));
  return chunks;
}
