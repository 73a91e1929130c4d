// "Did you mean ...?" for misspelt keys and values: the closest allowed word by edit distance
// (optimal string alignment: insertions, deletions, substitutions and swaps of neighbours).

/** Edit distance where swapping two neighbouring characters counts as one edit. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  const at = (i: number, j: number): number => d[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      (d[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}

// Spelling that differs only in case or separators (ssh_keys, SSHKeys, ssh-keys) is the same word.
function folded(word: string): string {
  return word.toLowerCase().replace(/[-_\s]/g, "");
}

/**
 * The allowed word closest to `word`, or undefined when none is close enough to be a likely
 * typo (at most 1 edit for short words, 2 for longer ones, 3 for long ones).
 */
export function closestMatch(word: string, allowed: Iterable<string>): string | undefined {
  const target = folded(word);
  const limit = word.length <= 4 ? 1 : word.length <= 8 ? 2 : 3;
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of allowed) {
    // The distance is at least the difference in length: a far longer word (a pasted blob as
    // a key) is no typo of any candidate, and comparing it in full would cost length² work.
    if (Math.abs(target.length - folded(candidate).length) > limit && Math.abs(word.length - candidate.length) > limit) continue;
    const distance = folded(candidate) === target ? 0 : editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best !== undefined && bestDistance <= limit ? best : undefined;
}

/** "; did you mean `cores`?" or "" — to append to a message. */
export function didYouMean(word: string, allowed: Iterable<string>): string {
  const match = closestMatch(word, allowed);
  return match === undefined ? "" : `; did you mean \`${match}\`?`;
}
