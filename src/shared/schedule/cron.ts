/** Parsing a Quartz cron with croner the one way server and screen share: Beijing time, Quartz weekdays. */
import { Cron } from 'croner';

/** Every schedule runs on Beijing time, whatever the server's TZ. */
export const SCHEDULE_ZONE = 'Asia/Shanghai';
export const CRON_MAX_LENGTH = 200;

/** A paused croner job: used only to compute fire times, never to run anything itself. */
export function cronOf(cron: string): Cron {
  return new Cron(cron, {
    mode: '7-part',
    alternativeWeekdays: true,
    timezone: SCHEDULE_ZONE,
    paused: true,
  });
}

export type CronCheck =
  | { ok: true; cron: string; next: number }
  | { ok: false; why: 'parse' | 'never'; msg: string };

/** Parses a cron (six fields get a `*` year) and finds its next fire after `from`. */
export function checkCron(raw: string, from = Date.now()): CronCheck {
  const text = raw.trim().replace(/\s+/g, ' ');
  if (!text || text.length > CRON_MAX_LENGTH)
    return { ok: false, why: 'parse', msg: 'cron is empty or too long' };
  const cron = text.split(' ').length === 6 ? `${text} *` : text;
  let job: Cron;
  try {
    job = cronOf(cron);
  } catch (err) {
    return { ok: false, why: 'parse', msg: (err as Error).message.replace(/^CronPattern: /, '') };
  }
  const next = job.nextRun(new Date(from));
  if (!next) return { ok: false, why: 'never', msg: 'this cron never fires again' };
  return { ok: true, cron, next: next.getTime() };
}

/** The next `n` fire times (ms) after `from`; empty for a cron that does not parse. */
export function nextFires(cron: string, n: number, from = Date.now()): number[] {
  try {
    return cronOf(cron)
      .nextRuns(n, new Date(from))
      .map((d) => d.getTime());
  } catch {
    return [];
  }
}

/** A time as Beijing wall-clock text `YYYY-MM-DD HH:mm:ss`. */
export function beijingText(ms: number): string {
  // Beijing has had no daylight saving since 1991: a fixed +8 h offset is exact.
  return new Date(ms + 8 * 3600_000).toISOString().replace('T', ' ').slice(0, 19);
}
