/**
 * "Sign in with WeChat / WeCom" on the sign-in screen, shown only for what the server offers. Inside
 * WeCom (the wxwork entry) the sign-in starts by itself, once per visit, at the corp's sign-in URL
 * (`wxwork/main/project/{corpid}`: the project's wxworkLoginUrl, else ours).
 */
import { Button, Divider, Space } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Offered, signInUrl, thirdApi } from '../../api/third.ts';
import { messagingApp } from '../../third/jssdk.ts';

/** Come back to the home route; the client exchanges ?wx_token= for a session. */
const BACK = '/home';
/** Session key: WeCom's automatic sign-in was tried in this visit (a failure is not retried in a loop). */
const TRIED = 'lc_wxwork_auto';

/** Our WeCom sign-in takes where to come back to; a project's own sign-in URL is used as it is. */
function withBack(loginUrl: string): string {
  if (!loginUrl.startsWith('/api/third/wxwork/login')) return loginUrl;
  return `${loginUrl}${loginUrl.includes('?') ? '&' : '?'}redirect=${encodeURIComponent(BACK)}`;
}

export function ThirdSignIn() {
  const { t } = useTranslation();
  const [offered, setOffered] = useState<Offered | null>(null);
  const [wxworkUrl, setWxworkUrl] = useState(signInUrl('wxwork', BACK));
  useEffect(() => {
    thirdApi
      .offered()
      .then(async (o) => {
        setOffered(o);
        const corp = o.corps[0];
        if (!o.wxwork || !corp) return;
        const p = await thirdApi.wxworkProject(corp);
        const url = withBack(p.loginUrl);
        setWxworkUrl(url);
        if (messagingApp(navigator.userAgent) === 'wxwork' && !sessionStorage.getItem(TRIED)) {
          sessionStorage.setItem(TRIED, '1');
          window.location.assign(url);
        }
      })
      .catch(() => undefined);
  }, []);
  if (!offered || (!offered.weixin && !offered.wxwork)) return null;
  return (
    <div className="login-third">
      <Divider plain />
      <Space wrap>
        {offered.weixin && <Button href={signInUrl('weixin', BACK)}>{t('login.withWeixin')}</Button>}
        {offered.wxwork && <Button href={wxworkUrl}>{t('login.withWxwork')}</Button>}
      </Space>
    </div>
  );
}
