/** "Sign in with WeChat / WeCom" on the sign-in screen, shown only for what the server offers. */
import { Button, Divider, Space } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { signInUrl, thirdApi } from '../../api/third.ts';

export function ThirdSignIn() {
  const { t } = useTranslation();
  const [offered, setOffered] = useState<{ weixin: boolean; wxwork: boolean } | null>(null);
  useEffect(() => {
    thirdApi
      .offered()
      .then(setOffered)
      .catch(() => setOffered(null));
  }, []);
  if (!offered || (!offered.weixin && !offered.wxwork)) return null;
  // Come back to the home route; the client exchanges ?wx_token= for a session.
  const back = '/home';
  return (
    <div className="login-third">
      <Divider plain />
      <Space wrap>
        {offered.weixin && <Button href={signInUrl('weixin', back)}>{t('login.withWeixin')}</Button>}
        {offered.wxwork && <Button href={signInUrl('wxwork', back)}>{t('login.withWxwork')}</Button>}
      </Space>
    </div>
  );
}
