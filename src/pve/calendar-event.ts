// PVE's calendar events (`schedule` of backup jobs, replication, realm sync): a subset of
// systemd's, as proxmox-time parses them (PVE 9 verifies `pve-calendar-event` with it).
// Facts carried over: `[WEEKDAYS] [[YEARS-]MONTHS-DAYS] [[HOURS:]MINUTES[:SECONDS]]`, at least
// one part; the words minutely, hourly, daily, weekly, monthly, yearly/annually, quarterly and
// semiannually/semi-annually alone; a trailing `UTC`; weekdays by short or long name in any
// case, in lists and `..` ranges (a range may wrap: sat..mon); each number field `*`, a value,
// a `a..b` range, a repetition `a/n` or `a..b/n`, `*/n`, or a comma list of these; values
// below each field's bound (hour 24, minute/second 60, month 13, day 32, year 2200).
// A time without an hour is minutes alone (`*/5` is every five minutes).

/** One field's values; `undefined` members of CalendarEvent mean "every". */
export type CalendarValue = { single: number } | { from: number; to: number } | { start: number; every: number; to?: number };

export interface CalendarEvent {
  utc: boolean;
  /** Weekdays as 0 (mon) .. 6 (sun); empty: every day. */
  weekdays: number[];
  year: CalendarValue[];
  month: CalendarValue[];
  day: CalendarValue[];
  hour: CalendarValue[];
  minute: CalendarValue[];
  second: CalendarValue[];
}

export class CalendarEventError extends Error {
  constructor(
    readonly text: string,
    reason: string,
  ) {
    super(`invalid calendar event '${text}' - ${reason}`);
    this.name = "CalendarEventError";
  }
}

const DAY_NAMES: Record<string, number> = {
  mon: 0,
  monday: 0,
  tue: 1,
  tuesday: 1,
  wed: 2,
  wednesday: 2,
  thu: 3,
  thursday: 3,
  fri: 4,
  friday: 4,
  sat: 5,
  saturday: 5,
  sun: 6,
  sunday: 6,
};

const ZERO: CalendarValue[] = [{ single: 0 }];

const WORDS: Record<string, Partial<CalendarEvent>> = {
  minutely: { second: ZERO },
  hourly: { minute: ZERO, second: ZERO },
  daily: { hour: ZERO, minute: ZERO, second: ZERO },
  weekly: { hour: ZERO, minute: ZERO, second: ZERO, weekdays: [0] },
  monthly: { hour: ZERO, minute: ZERO, second: ZERO, day: [{ single: 1 }] },
  yearly: { hour: ZERO, minute: ZERO, second: ZERO, day: [{ single: 1 }], month: [{ single: 1 }] },
  quarterly: { hour: ZERO, minute: ZERO, second: ZERO, day: [{ single: 1 }], month: [1, 4, 7, 10].map((single) => ({ single })) },
  semiannually: { hour: ZERO, minute: ZERO, second: ZERO, day: [{ single: 1 }], month: [{ single: 1 }, { single: 7 }] },
};
WORDS.annually = WORDS.yearly!;
WORDS["semi-annually"] = WORDS.semiannually!;

/** A position in the text; every reader returns the rest or undefined (nothing consumed). */
type Read<T> = (rest: string) => { value: T; rest: string } | undefined;

/** A failure no other reading of the text can avoid (a value too large, a backwards range). */
class Hard extends Error {}

function readNumber(max: number): Read<number> {
  return (rest) => {
    const m = /^\d+/.exec(rest);
    if (!m) return undefined;
    const value = Number(m[0]);
    if (value >= max) throw new Hard("time value too large");
    return { value, rest: rest.slice(m[0].length) };
  };
}

function readComp(max: number): Read<CalendarValue> {
  const num = readNumber(max);
  return (text) => {
    const first = num(text);
    if (!first) return undefined;
    let rest = first.rest;
    let to: number | undefined;
    if (rest.startsWith("..")) {
      const end = num(rest.slice(2));
      if (end) {
        if (first.value > end.value) throw new Hard("range start is bigger than end");
        to = end.value;
        rest = end.rest;
      }
    }
    if (rest.startsWith("/")) {
      const every = num(rest.slice(1));
      if (!every) throw new Hard("expected a repetition value after '/'");
      return { value: { start: first.value, every: every.value, ...(to !== undefined ? { to } : {}) }, rest: every.rest };
    }
    return { value: to !== undefined ? { from: first.value, to } : { single: first.value }, rest };
  };
}

// A star, a star with a repetition, or a comma list; a star alone is "every" (an empty list).
function readList(start: number, max: number): Read<CalendarValue[]> {
  const comp = readComp(max);
  return (text) => {
    if (text.startsWith("*")) {
      const rest = text.slice(1);
      if (rest.startsWith("/")) {
        const every = readNumber(max)(rest.slice(1));
        if (every && every.value > 0) return { value: [{ start, every: every.value }], rest: every.rest };
      }
      return { value: [], rest };
    }
    const first = comp(text);
    if (!first) return undefined;
    const values = [first.value];
    let rest = first.rest;
    while (rest.startsWith(",")) {
      const next = comp(rest.slice(1));
      if (!next) break;
      values.push(next.value);
      rest = next.rest;
    }
    return { value: values, rest };
  };
}

function readWeekday(text: string): { value: number; rest: string } {
  const word = /^[a-zA-Z]+/.exec(text)?.[0] ?? "";
  const day = DAY_NAMES[word.toLowerCase()];
  if (day === undefined) throw new Hard(`'${word}' is not a weekday (mon..sun)`);
  return { value: day, rest: text.slice(word.length) };
}

function readWeekdays(text: string): { value: number[]; rest: string } {
  const days = new Set<number>();
  let rest = text;
  for (;;) {
    const start = readWeekday(rest);
    rest = start.rest;
    let end = start.value;
    if (rest.startsWith("..")) {
      const last = readWeekday(rest.slice(2));
      end = last.value;
      rest = last.rest;
    }
    // A backwards range wraps over the week's end: sat..mon is sat, sun, mon.
    for (let d = start.value; ; d = (d + 1) % 7) {
      days.add(d);
      if (d === end) break;
    }
    if (!rest.startsWith(",")) break;
    rest = rest.slice(1);
  }
  return { value: [...days].sort(), rest };
}

function readDate(text: string): { value: Pick<CalendarEvent, "year" | "month" | "day">; rest: string } | undefined {
  const attempt = <T>(fn: () => T | undefined): T | undefined => {
    try {
      return fn();
    } catch (err) {
      if (err instanceof Hard) return undefined;
      throw err;
    }
  };
  const full = attempt(() => {
    const year = readList(0, 2200)(text);
    const month = year?.rest.startsWith("-") ? readList(1, 13)(year.rest.slice(1)) : undefined;
    const day = month?.rest.startsWith("-") ? readList(1, 32)(month.rest.slice(1)) : undefined;
    return year && month && day ? { value: { year: year.value, month: month.value, day: day.value }, rest: day.rest } : undefined;
  });
  if (full) return full;
  return attempt(() => {
    const month = readList(1, 13)(text);
    const day = month?.rest.startsWith("-") ? readList(1, 32)(month.rest.slice(1)) : undefined;
    return month && day ? { value: { year: [], month: month.value, day: day.value }, rest: day.rest } : undefined;
  });
}

function readTime(text: string): { value: Pick<CalendarEvent, "hour" | "minute" | "second">; rest: string } | undefined {
  let hour: CalendarValue[] = [];
  let rest = text;
  // The hour is there only when a `:` follows it; otherwise the first field is the minutes.
  try {
    const h = readList(0, 24)(rest);
    if (h?.rest.startsWith(":")) {
      hour = h.value;
      rest = h.rest.slice(1);
    }
  } catch (err) {
    if (!(err instanceof Hard)) throw err;
  }
  const minute = readList(0, 60)(rest);
  if (!minute) return undefined;
  rest = minute.rest;
  let second = ZERO;
  if (rest.startsWith(":")) {
    const s = readList(0, 60)(rest.slice(1));
    if (s) {
      second = s.value;
      rest = s.rest;
    }
  }
  return { value: { hour, minute: minute.value, second }, rest };
}

function parse(text: string): CalendarEvent {
  let body = text;
  const event: CalendarEvent = { utc: false, weekdays: [], year: [], month: [], day: [], hour: [], minute: [], second: [] };
  if (body.endsWith("UTC")) {
    event.utc = true;
    body = body.slice(0, -3).replace(/ +$/, "");
  }
  const word = WORDS[body];
  if (word) return { ...event, ...word };
  let parts = 0;
  if (/^[a-zA-Z]/.test(body)) {
    const days = readWeekdays(body);
    event.weekdays = days.value;
    body = days.rest.replace(/^[ \t]+/, "");
    parts += 1;
  }
  const date = readDate(body);
  if (date) {
    Object.assign(event, date.value);
    body = date.rest.replace(/^[ \t]+/, "");
    parts += 1;
  }
  const time = readTime(body);
  if (time) {
    Object.assign(event, time.value);
    body = time.rest;
    parts += 1;
  } else {
    Object.assign(event, { hour: ZERO, minute: ZERO, second: ZERO });
  }
  if (parts === 0) throw new Hard("expected a weekday, a date or a time");
  if (body !== "") throw new Hard(`unexpected '${body}'`);
  return event;
}

/** The event a schedule describes, or a CalendarEventError saying why PVE refuses it. */
export function parseCalendarEvent(text: string): CalendarEvent {
  // PVE trims the value before it parses it; an empty one is refused.
  const trimmed = text.trim();
  if (trimmed === "") throw new CalendarEventError(text, "unable to parse calendar event - event is empty");
  try {
    return parse(trimmed);
  } catch (err) {
    if (err instanceof Hard) throw new CalendarEventError(text, `unable to parse calendar event: ${err.message}`);
    throw err;
  }
}

/** Why PVE refuses a schedule, or undefined when it accepts it. */
export function calendarEventProblem(text: string): string | undefined {
  try {
    parseCalendarEvent(text);
    return undefined;
  } catch (err) {
    if (err instanceof CalendarEventError) return err.message;
    throw err;
  }
}

function matches(values: CalendarValue[], n: number): boolean {
  if (values.length === 0) return true;
  return values.some((v) => {
    if ("single" in v) return v.single === n;
    if ("from" in v) return n >= v.from && n <= v.to;
    return n >= v.start && (v.to === undefined || n <= v.to) && (n - v.start) % Math.max(v.every, 1) === 0;
  });
}

/**
 * The first time after `after` (epoch seconds) the event fires, computed in UTC (the
 * simulator's clock), or undefined when none comes within 1000 steps (PVE gives up alike).
 * Steps field by field from the year down, as proxmox-time does.
 */
export function nextCalendarEvent(event: CalendarEvent, after: number): number | undefined {
  const t = new Date((Math.floor(after) + 1) * 1000);
  for (let count = 0; count <= 1000; count++) {
    if (!matches(event.year, t.getUTCFullYear())) {
      if (t.getUTCFullYear() > 2199) return undefined;
      t.setUTCFullYear(t.getUTCFullYear() + 1, 0, 1);
      t.setUTCHours(0, 0, 0);
    } else if (!matches(event.month, t.getUTCMonth() + 1)) {
      t.setUTCMonth(t.getUTCMonth() + 1, 1);
      t.setUTCHours(0, 0, 0);
    } else if (!matches(event.day, t.getUTCDate()) || (event.weekdays.length > 0 && !event.weekdays.includes((t.getUTCDay() + 6) % 7))) {
      t.setUTCDate(t.getUTCDate() + 1);
      t.setUTCHours(0, 0, 0);
    } else if (!matches(event.hour, t.getUTCHours())) {
      t.setUTCHours(t.getUTCHours() + 1, 0, 0);
    } else if (!matches(event.minute, t.getUTCMinutes())) {
      t.setUTCMinutes(t.getUTCMinutes() + 1, 0);
    } else if (!matches(event.second, t.getUTCSeconds())) {
      t.setUTCSeconds(t.getUTCSeconds() + 1);
    } else {
      return Math.floor(t.getTime() / 1000);
    }
  }
  return undefined;
}
