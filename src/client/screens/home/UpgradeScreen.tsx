import { CheckOutlined, PhoneOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Col, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PRICES } from '../../../shared/constants.ts';
import { useAppProject } from '../../shell/use-app-project.ts';

const TIERS = ['basics', 'enterprise', 'custom'] as const;
const STATUS_TIER: Record<number, string> = { 0: 'test', 1: 'basics', 2: 'enterprise', 3: 'custom' };

/** End of the current month: the subscription end time the spec shows (§9). */
function endOfMonth(now = new Date()): Date {
  return new Date(now.getFullYear(), now.getMonth() + 1, 0, 23, 59, 59);
}

/**
 * /upgrade: the tiers with their prices and hints (spec §9). The payment calls are not built on this
 * server, so "contact us" is disabled and the hotline is shown instead.
 */
export default function UpgradeScreen() {
  const { t, i18n } = useTranslation();
  const { current } = useAppProject();
  const date = new Intl.DateTimeFormat(i18n.language === 'zh' ? 'zh-CN' : 'en-GB', { dateStyle: 'long' });
  const tierKey = current ? STATUS_TIER[current._status] : undefined;
  return (
    <div className="upgrade" data-testid="upgrade">
      <Typography.Title level={3}>{t('upgrade.title')}</Typography.Title>
      {current ? (
        <Typography.Paragraph>
          {current._name} ·{' '}
          {t('upgrade.current', { tier: tierKey && tierKey !== 'test' ? t(`upgrade.${tierKey}`) : 'test' })}
        </Typography.Paragraph>
      ) : null}
      <Alert type="info" showIcon title={t('upgrade.noPayment')} className="home-card" />
      <Row gutter={[16, 16]}>
        {TIERS.map((tier) => (
          <Col key={tier} xs={24} md={8}>
            <Card title={t(`upgrade.${tier}`)} data-testid={`tier-${tier}`}>
              <Typography.Title level={2}>
                {t('upgrade.price', { price: PRICES[tier].toLocaleString('en') })}
              </Typography.Title>
              <Typography.Paragraph type="secondary">
                {t('upgrade.until', { date: date.format(endOfMonth()) })}
              </Typography.Paragraph>
              <ul className="tier-hints">
                {t(`upgrade.${tier}Hint`)
                  .split(' · ')
                  .map((h) => (
                    <li key={h}>
                      <CheckOutlined /> {h}
                    </li>
                  ))}
              </ul>
              <Button block disabled>
                {t('upgrade.contact')}
              </Button>
            </Card>
          </Col>
        ))}
      </Row>
      <Typography.Paragraph className="login-hotline">
        <PhoneOutlined /> {t('upgrade.hotline')}
      </Typography.Paragraph>
    </div>
  );
}
