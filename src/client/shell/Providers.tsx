import { App, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EffectsBridge } from './EffectsBridge.tsx';

/** antd configured for the current language, and the notice/modal bridge of the request wrapper. */
export function Providers({ children, goHome }: { children: ReactNode; goHome: () => void }) {
  const { i18n } = useTranslation();
  return (
    <ConfigProvider locale={i18n.language === 'zh' ? zhCN : enUS}>
      <App notification={{ placement: 'topRight' }}>
        <EffectsBridge goHome={goHome} />
        {children}
      </App>
    </ConfigProvider>
  );
}
