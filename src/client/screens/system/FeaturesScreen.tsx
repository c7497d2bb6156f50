import { App, Card, Form, Input, Space, Spin, Switch, Tag, Typography } from 'antd';
import { useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { ADMIN_FEATURES, FEATURE_PARTS, type FeatureFlags } from '../../../shared/admin/features.ts';
import { earlyAccess, onEarlyAccess, setEarlyAccess } from '../../i18n/index.ts';
import {
  debugMode,
  featuresApi,
  setDebugMode,
  useAdminContext,
  useAdminFeatures,
} from '../../stores/admin-features.ts';
import { useProject } from '../workbench/workbench-context.ts';

/**
 * /system/features: the owner switches the administration's features for this system (stored in the
 * shared store, checked by the server), and this browser's debug and early-access modes.
 */
export default function FeaturesScreen() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const p = useProject()._id;
  const ctx = useAdminContext(p);
  const info = useAdminFeatures((s) => (s.project === p ? s.info : null));
  const save = useAdminFeatures((s) => s.save);
  const [busy, setBusy] = useState(false);
  const early = useSyncExternalStore(onEarlyAccess, earlyAccess);
  const [secret, setSecret] = useState('');
  const [asking, setAsking] = useState(false);
  if (!info || !ctx) return <Spin className="center-pad" />;

  async function flip(flag: string, on: boolean) {
    const stored: FeatureFlags = { ...info!.stored, [flag]: on };
    setBusy(true);
    try {
      await save(p, stored);
      message.success(t('adm3.features.saved'));
    } finally {
      setBusy(false);
    }
  }

  async function switchDebug(on: boolean) {
    if (!on) {
      setDebugMode(p, false);
      message.success(t('adm3.features.debugOff'));
      return;
    }
    if (!info!.debugOpen && !secret.trim()) {
      setAsking(true);
      return;
    }
    try {
      await featuresApi.debug(p, info!.debugOpen ? undefined : secret.trim());
      setDebugMode(p, true);
      setAsking(false);
      message.success(t('adm3.features.debugOn'));
    } catch (err) {
      message.error((err as Error).message);
    }
  }

  const row = (flag: string, parent?: string) => {
    const installed = info.installed.includes(parent ?? flag);
    return (
      <div className="features-row" key={flag}>
        <Switch
          size={parent ? 'small' : 'default'}
          checked={info.flags[flag] === true}
          disabled={busy || !installed || (parent !== undefined && info.flags[parent] !== true)}
          onChange={(on) => void flip(flag, on)}
          aria-label={t(`adm3.features.flag.${flag}`)}
          data-testid={`feature-${flag}`}
        />
        <span>{t(`adm3.features.flag.${flag}`)}</span>
        {!installed && !parent ? <Tag>{t('adm3.features.notInstalled')}</Tag> : null}
      </div>
    );
  };

  return (
    <div className="system-pad" data-testid="system-features">
      <h2 className="wb-heading">{t('adm3.features.title')}</h2>
      <Typography.Paragraph type="secondary">{t('adm3.features.help')}</Typography.Paragraph>
      <Space direction="vertical" size="middle" className="features-cards">
        <Card size="small" title={t('adm3.features.title')}>
          {ADMIN_FEATURES.map((f) => (
            <div key={f}>
              {row(f)}
              {f in FEATURE_PARTS ? (
                <div className="features-parts" data-testid={`feature-parts-${f}`}>
                  {FEATURE_PARTS[f as keyof typeof FEATURE_PARTS].map((part) => row(`${f}.${part}`, f))}
                </div>
              ) : null}
            </div>
          ))}
        </Card>
        <Card size="small" title={t('adm3.features.modes')}>
          <div className="features-row">
            <Switch checked={ctx.debug} onChange={(on) => void switchDebug(on)} data-testid="feature-debug" />
            <span>{t('adm3.features.debug')}</span>
          </div>
          <Typography.Paragraph type="secondary" className="features-help">
            {t('adm3.features.debugHelp')}
          </Typography.Paragraph>
          {asking && !debugMode(p) ? (
            <Form layout="vertical" onFinish={() => void switchDebug(true)}>
              <Form.Item label={t('adm3.features.debugSecret')} extra={t('adm3.features.debugSecretHelp')}>
                <Input.Search
                  value={secret}
                  onChange={(e) => setSecret(e.target.value)}
                  enterButton={t('common.ok')}
                  onSearch={() => void switchDebug(true)}
                  maxLength={64}
                  data-testid="feature-debug-secret"
                />
              </Form.Item>
            </Form>
          ) : null}
          <div className="features-row">
            <Switch checked={early} onChange={(on) => setEarlyAccess(on)} data-testid="feature-early" />
            <span>{t('adm3.features.early')}</span>
          </div>
          <Typography.Paragraph type="secondary" className="features-help">
            {t('adm3.features.earlyHelp')}
          </Typography.Paragraph>
          <div className="features-row">
            <Tag color={info.vendor ? 'green' : 'default'}>{t('adm3.features.vendor')}</Tag>
          </div>
        </Card>
      </Space>
    </div>
  );
}
