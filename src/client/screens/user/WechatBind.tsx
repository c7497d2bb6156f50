/**
 * WeChat binding in the user centre (spec: "wechat bind or unbind by scanning a QR code"): Bind asks
 * the server for a single-use bind code and shows its URL as a QR code on desktop (a phone opens it
 * directly); the screen polls the code until the phone has finished, then says 绑定成功.
 */
import { App, Button, Popconfirm, QRCode, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorByCode } from '../../../shared/errors.ts';
import { ApiError } from '../../api/api-error.ts';
import { type Binds, thirdApi } from '../../api/third.ts';
import { currentLang } from '../../i18n/index.ts';
import { useNarrow } from '../../shell/use-app-project.ts';

const POLL_MS = 2000;

export function WechatBind() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const narrow = useNarrow();
  const [binds, setBinds] = useState<Binds | null>(null);
  const [code, setCode] = useState<{ token: string; url: string } | null>(null);
  const [scanned, setScanned] = useState(false);
  const [busy, setBusy] = useState(false);

  const load = () =>
    thirdApi
      .binds()
      .then(setBinds)
      .catch(() => setBinds(null));
  // biome-ignore lint/correctness/useExhaustiveDependencies: once on mount
  useEffect(() => {
    void load();
    // A phone coming back from the bind lands here with ?bound=weixin.
    if (new URLSearchParams(window.location.search).get('bound') === 'weixin')
      message.success(t('wechat.bindOk'));
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: polls while this bind code is shown
  useEffect(() => {
    if (!code) return;
    const timer = setInterval(() => {
      thirdApi
        .bindStatus('weixin', code.token)
        .then((s) => {
          setScanned(s.status === 'scanned');
          if (s.status === 'bound') {
            setCode(null);
            message.success(t('wechat.bindOk'));
            void load();
          }
        })
        .catch(() => {
          setCode(null);
          message.error(t('wechat.bindFailed'));
        });
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [code]);

  const fail = (e: unknown) => {
    const known = e instanceof ApiError ? errorByCode(e.code) : undefined;
    const why = known ? (currentLang() === 'zh' ? known.zh : known.msg) : '';
    message.error(why ? `${t('wechat.bindFailed')}: ${why}` : t('wechat.bindFailed'));
  };

  if (!binds?.offered.includes('weixin'))
    return (
      <div>
        <Typography.Title level={5}>{t('user.wechat')}</Typography.Title>
        <Typography.Text type="secondary">{t('user.wechatBody')}</Typography.Text>
      </div>
    );

  const start = async () => {
    setBusy(true);
    try {
      const c = await thirdApi.startBind('weixin', '/user');
      // On a phone there is nothing to scan: go through the bind here.
      if (narrow) window.location.assign(c.url);
      else setCode(c);
    } catch (e) {
      fail(e);
    } finally {
      setBusy(false);
    }
  };
  const unbind = async () => {
    try {
      await thirdApi.unbind('weixin');
      message.success(t('wechat.unbindOk'));
      await load();
    } catch (e) {
      fail(e);
    }
  };

  return (
    <div data-testid="wechat-bind">
      <Typography.Title level={5}>{t('user.wechat')}</Typography.Title>
      {binds.weixin ? (
        <Space orientation="vertical">
          <Typography.Text data-testid="wechat-bound">{t('wechat.wechatBound')}</Typography.Text>
          <Popconfirm title={t('wechat.wechatUnbindConfirm')} onConfirm={unbind}>
            <Button danger>{t('wechat.wechatUnbind')}</Button>
          </Popconfirm>
        </Space>
      ) : code ? (
        <Space orientation="vertical" data-testid="wechat-qr">
          <Typography.Text>{scanned ? t('wechat.wechatScanned') : t('wechat.wechatScan')}</Typography.Text>
          <QRCode value={code.url} size={180} />
          <Typography.Link href={code.url} target="_blank" data-testid="wechat-bind-link">
            {t('wechat.wechatOpenHere')}
          </Typography.Link>
        </Space>
      ) : (
        <Space orientation="vertical">
          <Typography.Text type="secondary">{t('wechat.wechatUnbound')}</Typography.Text>
          <Button type="primary" loading={busy} onClick={start}>
            {t('wechat.wechatBind')}
          </Button>
        </Space>
      )}
    </div>
  );
}
