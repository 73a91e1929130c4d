// Line and column of an offset in a text, 1-based, as the `yaml` library's LineCounter answers
// for the same text (so both YAML readers report the same positions), without loading it.

export class LineStarts {
  /** Where each line starts: 0, then after every "\n". */
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) this.starts.push(i + 1);
  }

  /** The line holding `offset` (the last line starting at or before it) and the column in it. */
  linePos(offset: number): { line: number; col: number } {
    const starts = this.starts;
    let low = 0;
    let high = starts.length;
    // The first start not before `offset`.
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((starts[mid] as number) < offset) low = mid + 1;
      else high = mid;
    }
    if (starts[low] === offset) return { line: low + 1, col: 1 };
    // Offsets are never negative, so low > 0 here (starts[0] is 0).
    const start = starts[low - 1] as number;
    return { line: low, col: offset - start + 1 };
  }
}
