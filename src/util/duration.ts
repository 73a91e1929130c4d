// Durations as operators write them on the command line: `90s`, `30m`, `2h`, `1h30m`, `7d`, or a
// bare number of seconds. Returns milliseconds, or undefined for text that is not a duration.
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  if (!/^(\d+(\.\d+)?(ms|s|m|h|d))+$/.test(trimmed)) return undefined;
  let total = 0;
  for (const [, value, , unit] of trimmed.matchAll(/(\d+(\.\d+)?)(ms|s|m|h|d)/g)) total += Number(value) * UNIT_MS[unit!]!;
  return Math.round(total);
}

/** `95 s`, `12 min 5 s`, `2 h 30 min`: for progress lines and messages. */
export function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return ms < 1000 && ms > 0 ? `${Math.round(ms)} ms` : `${seconds} s`;
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return [h ? `${h} h` : "", m ? `${m} min` : "", s ? `${s} s` : ""].filter(Boolean).join(" ");
}
