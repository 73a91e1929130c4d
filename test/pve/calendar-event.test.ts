import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { calendarEventProblem, nextCalendarEvent, parseCalendarEvent } from "../../src/pve/index.js";

// What PVE 9 (proxmox-time's calendar event parser) accepts and refuses.
const ACCEPTED = [
  "02:30",
  "2:5",
  "mon..fri 02:30",
  "sat..mon 04:00", // a range may wrap over the week's end
  "Monday,WED 21:00",
  "*/5", // minutes alone
  "mon..wed 30/10",
  "fri 12..13:5/20",
  "8..17,22:0/15",
  "12,14,16,18,20,22:5",
  "sun 1:2:3",
  "2024-*-01 03:00",
  "*-12-25",
  "12-25 06:00",
  "daily",
  "hourly",
  "weekly",
  "monthly",
  "yearly",
  "annually",
  "quarterly",
  "semi-annually",
  "minutely",
  "daily UTC",
  "02:30 UTC",
  "  21:00  ", // trimmed first
];

const REFUSED: Array<[string, RegExp]> = [
  ["", /event is empty/],
  ["Daily", /not a weekday/], // the words are lower case only
  ["xyz 02:00", /not a weekday/],
  ["24:00:00", /unexpected/],
  ["3..1:00", /range start is bigger than end/],
  ["mon 2:30 extra", /unexpected ' extra'/],
  ["02:60", /too large|unexpected/],
  ["13-01", /too large|unexpected/],
  ["UTC", /expected a weekday, a date or a time/],
];

describe("calendar events (schedule)", () => {
  for (const text of ACCEPTED) {
    it(`accepts ${JSON.stringify(text)}`, () => assert.equal(calendarEventProblem(text), undefined));
  }
  for (const [text, why] of REFUSED) {
    it(`refuses ${JSON.stringify(text)} saying why`, () => {
      const problem = calendarEventProblem(text);
      assert.ok(problem !== undefined, "refused");
      assert.match(problem, new RegExp(`^invalid calendar event '${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}' - `));
      assert.match(problem, why);
    });
  }

  it("computes the next run (UTC)", () => {
    const at = (iso: string) => Date.parse(iso) / 1000;
    const next = (schedule: string, after: string) =>
      new Date(nextCalendarEvent(parseCalendarEvent(schedule), at(after))! * 1000).toISOString();
    // 2026-12-05 is a Saturday: weekdays only, so Monday.
    assert.equal(next("mon..fri 02:30", "2026-12-05T12:00:00Z"), "2026-12-07T02:30:00.000Z");
    assert.equal(next("*/5", "2026-12-05T12:03:00Z"), "2026-12-05T12:05:00.000Z");
    assert.equal(next("02:30", "2026-12-05T02:30:00Z"), "2026-12-06T02:30:00.000Z");
    assert.equal(next("monthly", "2026-12-05T00:00:00Z"), "2027-01-01T00:00:00.000Z");
    assert.equal(next("sat..mon 04:00", "2026-12-08T00:00:00Z"), "2026-12-12T04:00:00.000Z");
  });
});
