/** Payloads of the schedule calls (server: schedule/service.ts; client: api/schedules.ts). */

/** A task as the calls answer it: the spec's `_id, _name, _cron, _flow`, enabled, creator, next run. */
export interface ScheduleTask {
  _id: string;
  _name: string;
  _cron: string;
  _flow: string;
  _option: Record<string, unknown>;
  enabled: boolean;
  creator: string | null;
  next: number | null;
  createdAt: number;
  updatedAt: number;
}
