import { App } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { NOTICE_MS } from '../../shared/constants.ts';
import { errorByCode } from '../../shared/errors.ts';
import { setApiEffects } from '../api/effects.ts';
import { currentLang } from '../i18n/index.ts';

/** Text for a coded error: our registry's Chinese text when the server sent its stock message. */
function errorText(code: number, msg: string): string {
  const def = errorByCode(code);
  if (def && currentLang() === 'zh' && (msg === def.msg || msg.startsWith(`${def.msg}:`))) {
    return def.zh + msg.slice(def.msg.length);
  }
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
          notification.error({
            title: t('notice.errorTitle'),
            description: `${code}: ${errorText(code, msg)}`,
            duration: NOTICE_MS / 1000,
          });
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
