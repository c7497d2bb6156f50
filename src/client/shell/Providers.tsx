import { App, ConfigProvider, type ThemeConfig } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EffectsBridge } from './EffectsBridge.tsx';

/**
 * antd's theme: zero-runtime styles. Its CSS is prebuilt and shipped per component with the chunks
 * that use them (scripts/vite-antd-css.ts) instead of generated while rendering.
 */
export const ANTD_THEME: ThemeConfig = { zeroRuntime: true };

/** antd configured for the current language, and the notice/modal bridge of the request wrapper. */
export function Providers({ children, goHome }: { children: ReactNode; goHome: () => void }) {
  const { i18n } = useTranslation();
  return (
    <ConfigProvider locale={i18n.language === 'zh' ? zhCN : enUS} theme={ANTD_THEME}>
      <App notification={{ placement: 'topRight' }}>
        <EffectsBridge goHome={goHome} />
        {children}
      </App>
    </ConfigProvider>
  );
}
