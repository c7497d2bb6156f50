/**
 * Page notices (spec: shown 3 s; titles 提示 / 错误！ by default, in the user's language). The shell's
 * antd App provides the notification API; NoticeBridge hands it to this module.
 */
import i18next from 'i18next';
import { NOTICE_MS } from '../../shared/constants.ts';
import type { NoticeLevel } from './actions.ts';

export interface NoticeApi {
  open(n: { type: NoticeLevel; title: string; description: string; duration: number }): void;
}

let api: NoticeApi | null = null;

export function setNoticeApi(next: NoticeApi | null): void {
  api = next;
}

/** The notification API in use (a screen lending its own restores this one after). */
export function currentNoticeApi(): NoticeApi | null {
  return api;
}

export function defaultTitle(level: NoticeLevel): string {
  return i18next.t(level === 'error' ? 'notice.errorTitle' : 'notice.successTitle');
}

/** Shows a notice for NOTICE_MS (3 s). Without a notification API (tests), logs instead. */
export function notify(level: NoticeLevel, message: string, title?: string): void {
  const n = {
    type: level,
    title: title || defaultTitle(level),
    description: message,
    duration: NOTICE_MS / 1000,
  };
  if (api) api.open(n);
  else console.info(`[${level}] ${n.title}: ${message}`);
}
