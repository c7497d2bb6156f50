import { App } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { NOTICE_MS } from '../../shared/constants.ts';
import { setApiEffects } from '../api/effects.ts';
import { currentLang } from '../i18n/index.ts';

/**
 * Text for a coded error: our registry's Chinese text when the server sent its stock message. The
 * registry (every code's two texts) is loaded only then, not with the entry: English needs nothing.
 */
async function errorText(code: number, msg: string): Promise<string> {
  if (currentLang() !== 'zh') return msg;
  const def = await import('../../shared/errors.ts').then(
    (m) => m.errorByCode(code),
    () => undefined,
  );
  if (def && (msg === def.msg || msg.startsWith(`${def.msg}:`))) return def.zh + msg.slice(def.msg.length);
  return msg;
}

/** Wires the request wrapper's error behaviour (spec §8) to antd's notices and modals. */
export function EffectsBridge({ goHome }: { goHome: () => void }) {
  const { notification, modal } = App.useApp();
  const { t } = useTranslation();
  useEffect(
    () =>
      setApiEffects({
        notifyError(code, msg) {
          void errorText(code, msg).then((text) =>
            notification.error({
              title: t('notice.errorTitle'),
              description: `${code}: ${text}`,
              duration: NOTICE_MS / 1000,
            }),
          );
        },
        partnerModal() {
          modal.info({
            title: t('notice.partnerTitle'),
            content: t('notice.partnerBody'),
            okText: t('notice.learnMore'),
            onOk: goHome,
            onCancel: goHome,
          });
        },
        warnCrowded() {
          notification.warning({ title: t('notice.crowded'), duration: NOTICE_MS / 1000 });
        },
      }),
    [notification, modal, t, goHome],
  );
  return null;
}
