/**
 * WeChat and WeCom binding in the user centre (spec: "wechat bind or unbind by scanning a QR code"):
 * Bind asks the server for a single-use bind code and shows its URL as a QR code on desktop (a phone
 * opens it directly); the screen polls the code until the phone has finished, then says 绑定成功.
 * One component for both messaging apps: `provider` picks the calls, the words and the test ids.
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

type Provider = 'weixin' | 'wxwork';

/** The words of each provider (i18n keys) and its test-id prefix. */
const WORDS = {
  weixin: {
    id: 'wechat',
    title: 'user.wechat',
    bound: 'wechat.wechatBound',
    unbound: 'wechat.wechatUnbound',
    bind: 'wechat.wechatBind',
    unbind: 'wechat.wechatUnbind',
    unbindConfirm: 'wechat.wechatUnbindConfirm',
    scan: 'wechat.wechatScan',
    scanned: 'wechat.wechatScanned',
  },
  wxwork: {
    id: 'wxwork',
    title: 'user.wxwork',
    bound: 'wechat.wxworkBound',
    unbound: 'wechat.wxworkUnbound',
    bind: 'wechat.wxworkBind',
    unbind: 'wechat.wxworkUnbind',
    unbindConfirm: 'wechat.wxworkUnbindConfirm',
    scan: 'wechat.wxworkScan',
    scanned: 'wechat.wxworkScanned',
  },
} as const;

export function ThirdBind({ provider }: { provider: Provider }) {
  const w = WORDS[provider];
  const { t } = useTranslation();
  const { message } = App.useApp();
  const narrow = useNarrow();
  const [binds, setBinds] = useState<Binds | null>(null);
  const [code, setCode] = useState<{ token: string; url: string } | null>(null);
  const [scanned, setScanned] = useState(false);
  const [busy, setBusy] = useState(false);
  /** Bound while this screen watched: said next to the binding too (the toast goes away). */
  const [justBound, setJustBound] = useState(false);

  const load = () =>
    thirdApi
      .binds()
      .then(setBinds)
      .catch(() => setBinds(null));
  // biome-ignore lint/correctness/useExhaustiveDependencies: once on mount
  useEffect(() => {
    void load();
    // A phone coming back from the bind lands here with ?bound=weixin (or wxwork).
    if (new URLSearchParams(window.location.search).get('bound') === provider)
      message.success(t('wechat.bindOk'));
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: polls while this bind code is shown
  useEffect(() => {
    if (!code) return;
    const timer = setInterval(() => {
      thirdApi
        .bindStatus(provider, code.token)
        .then((s) => {
          setScanned(s.status === 'scanned');
          if (s.status === 'bound') {
            setCode(null);
            setJustBound(true);
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

  if (!binds?.offered.includes(provider))
    // WeChat says why it cannot be bound here; WeCom, rarer, is simply not shown.
    return provider === 'wxwork' ? null : (
      <div>
        <Typography.Title level={5}>{t('user.wechat')}</Typography.Title>
        <Typography.Text type="secondary">{t('user.wechatBody')}</Typography.Text>
      </div>
    );

  const start = async () => {
    setBusy(true);
    try {
      const c = await thirdApi.startBind(provider, '/user');
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
      await thirdApi.unbind(provider);
      message.success(t('wechat.unbindOk'));
      await load();
    } catch (e) {
      fail(e);
    }
  };

  return (
    <div data-testid={`${w.id}-bind`}>
      <Typography.Title level={5}>{t(w.title)}</Typography.Title>
      {binds[provider] ? (
        <Space orientation="vertical">
          {justBound && <Typography.Text type="success">{t('wechat.bindOk')}</Typography.Text>}
          <Typography.Text data-testid={`${w.id}-bound`}>{t(w.bound)}</Typography.Text>
          <Popconfirm title={t(w.unbindConfirm)} onConfirm={unbind}>
            <Button danger>{t(w.unbind)}</Button>
          </Popconfirm>
        </Space>
      ) : code ? (
        <Space orientation="vertical" data-testid={`${w.id}-qr`}>
          <Typography.Text>{scanned ? t(w.scanned) : t(w.scan)}</Typography.Text>
          <QRCode value={code.url} size={180} />
          <Typography.Link href={code.url} target="_blank" data-testid={`${w.id}-bind-link`}>
            {t('wechat.wechatOpenHere')}
          </Typography.Link>
        </Space>
      ) : (
        <Space orientation="vertical">
          <Typography.Text type="secondary">{t(w.unbound)}</Typography.Text>
          <Button type="primary" loading={busy} onClick={start}>
            {t(w.bind)}
          </Button>
        </Space>
      )}
    </div>
  );
}
