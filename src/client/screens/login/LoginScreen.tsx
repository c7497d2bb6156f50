import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { LanguageSwitch } from '../../shell/LanguageSwitch.tsx';
import { ThirdSignIn } from './ThirdSignIn.tsx';

function titleKey(path: string): string {
  if (path.startsWith('/login/register')) return 'register.title';
  if (path.startsWith('/login/forget')) return 'forget.title';
  return 'login.title';
}

/** The one sign-in screen with its modes: sign in, register, forgot password, token. */
export default function LoginScreen() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <div className="login-page">
      <div className="login-top">
        <strong>{t('app.title')}</strong>
        <LanguageSwitch />
      </div>
      <Card className="login-card" title={<h1 className="login-title">{t(titleKey(pathname))}</h1>}>
        <Outlet />
        {!pathname.startsWith('/login/') && <ThirdSignIn />}
      </Card>
      <p className="login-hotline">{t('login.hotline')}</p>
    </div>
  );
}
