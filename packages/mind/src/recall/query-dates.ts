/**
 * The time a query names ("on 3 June, 2023", "in August 2023", "2023-06-03", "yesterday"), as a
 * range of instants that search compares with each frame's `createdAt` (when the fact was stated):
 * a frame stated in that range ranks up (README "Ranking"). English month names and ISO dates;
 * numeric dates like 6/3/2023 are left out because their order differs between locales.
 */

/** A half-open range of instants, in ms since the epoch: `from <= t < to`, and the words of the query that named it. */
export interface StatedRange {
  from: number;
  to: number;
  /** The part of the query that names the time ("3 June, 2023", "yesterday"), as written. */
  text: string;
}

const DAY = 86_400_000;
/** A named day also takes the day before and after it: "on 3 June" often means a talk that spans midnight or a time zone away. */
const DAY_SLACK = DAY;

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const ORD = '(?:st|nd|rd|th)?';

const DAY_MONTH_YEAR = new RegExp(`\\b(\\d{1,2})${ORD}\\s+(?:of\\s+)?${MONTH},?\\s+(\\d{4})\\b`, 'i');
const MONTH_DAY_YEAR = new RegExp(`\\b${MONTH}\\s+(\\d{1,2})${ORD},?\\s+(\\d{4})\\b`, 'i');
const MONTH_YEAR = new RegExp(`\\b${MONTH},?\\s+(\\d{4})\\b`, 'i');
const ISO_DAY = /\b(\d{4})-(\d{2})-(\d{2})\b/;
const ISO_MONTH = /\b(\d{4})-(\d{2})\b(?!-\d)/;

function monthIndex(name: string): number {
  const n = name.toLowerCase().replace(/\.$/, '').slice(0, 3);
  return MONTHS.findIndex((m) => m.startsWith(n));
}

type Range = Omit<StatedRange, 'text'>;

function dayRange(year: number, month: number, day: number): Range | undefined {
  if (month < 0 || month > 11 || day < 1 || day > 31) return undefined;
  const t = Date.UTC(year, month, day);
  if (new Date(t).getUTCMonth() !== month) return undefined; // 31 June
  return { from: t - DAY_SLACK, to: t + DAY + DAY_SLACK };
}

function monthRange(year: number, month: number): Range | undefined {
  if (month < 0 || month > 11) return undefined;
  return { from: Date.UTC(year, month, 1), to: Date.UTC(year, month + 1, 1) };
}

function startOfDay(t: number): number {
  return Math.floor(t / DAY) * DAY;
}

/**
 * The range of time `query` names, or undefined when it names none. Absolute forms: `3 June, 2023`,
 * `June 3rd, 2023`, `2023-06-03` (that day, ±1 day), `August 2023`, `2023-08` (that month);
 * relative to `now` (UTC days): `today`, `yesterday`, `N days ago` (±1 day), `this week` and
 * `last week` (the 7 days up to now, the 7 before them), `this month`, `last month`. The first form
 * found wins. Pure; never throws.
 */
export function statedRange(query: string, now: Date): StatedRange | undefined {
  const named = (m: RegExpExecArray, r: Range | undefined): StatedRange | undefined => (r ? { ...r, text: m[0] } : undefined);
  let m = DAY_MONTH_YEAR.exec(query);
  if (m) return named(m, dayRange(Number(m[3]), monthIndex(m[2]!), Number(m[1])));
  m = MONTH_DAY_YEAR.exec(query);
  if (m) return named(m, dayRange(Number(m[3]), monthIndex(m[1]!), Number(m[2])));
  m = ISO_DAY.exec(query);
  if (m) return named(m, dayRange(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  m = MONTH_YEAR.exec(query);
  if (m) return named(m, monthRange(Number(m[2]), monthIndex(m[1]!)));
  m = ISO_MONTH.exec(query);
  if (m) return named(m, monthRange(Number(m[1]), Number(m[2]) - 1));
  const today = startOfDay(now.getTime());
  const d = new Date(today);
  const relative: Array<[RegExp, (m: RegExpExecArray) => Range | undefined]> = [
    [/\btoday\b/i, () => ({ from: today, to: today + DAY })],
    [/\byesterday\b/i, () => ({ from: today - DAY, to: today })],
    [/\b(\d{1,3}) days? ago\b/i, (x) => {
      const t = today - Number(x[1]) * DAY;
      return { from: t - DAY_SLACK, to: t + DAY + DAY_SLACK };
    }],
    [/\bthis week\b/i, () => ({ from: today - 6 * DAY, to: today + DAY })],
    [/\blast week\b/i, () => ({ from: today - 13 * DAY, to: today - 6 * DAY })],
    [/\bthis month\b/i, () => monthRange(d.getUTCFullYear(), d.getUTCMonth())],
    [/\blast month\b/i, () => ({ from: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1), to: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) })],
  ];
  for (const [re, range] of relative) {
    const x = re.exec(query);
    if (x) return named(x, range(x));
  }
  return undefined;
}
