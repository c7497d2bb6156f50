import { CheckOutlined, PhoneOutlined } from '@ant-design/icons';
import {
  Alert,
  Button,
  Card,
  Col,
  Descriptions,
  QRCode,
  Radio,
  Result,
  Row,
  Space,
  Steps,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import {
  ORDER_PAID,
  type OrderView,
  PACKAGES,
  PAY_TYPES,
  type PackageType,
  type PayType,
  wizardPackage,
  wizardPayType,
} from '../../../shared/api/payment.ts';
import { PRICES } from '../../../shared/constants.ts';
import { paymentApi } from '../../api/payment.ts';
import { dateFormat } from '../../i18n/date-format.ts';
import { refreshProjects, useAppProject } from '../../shell/use-app-project.ts';

const STATUS_TIER: Record<number, string> = { 0: 'test', 1: 'basics', 2: 'enterprise', 3: 'custom' };
/** How often step 2 asks whether the order was paid. */
const POLL_MS = 2000;

/** End of the current month: the subscription end time the spec shows (§9). */
function endOfMonth(now = new Date()): Date {
  return new Date(now.getFullYear(), now.getMonth() + 1, 0, 23, 59, 59);
}

type Step = 0 | 1 | 2;

/**
 * /upgrade: the payment wizard (spec §4). Step 0 chooses the version (basics, enterprise or custom,
 * else basics) and the pay type (alipay or wxpay, else alipay); step 1 fetches the package order
 * (an unpaid one of the same package from the last day is reused); step 2 pays — Alipay in a new
 * window, WeChat Pay through the QR code of its payment URL — and polls until the order is paid.
 * `?version=` and `?payType=` preselect.
 */
export default function UpgradeScreen() {
  const { t, i18n } = useTranslation();
  const { current } = useAppProject();
  const [params] = useSearchParams();
  const [step, setStep] = useState<Step>(0);
  const [pkg, setPkg] = useState<PackageType>(() => wizardPackage(params.get('version')));
  const [payType, setPayType] = useState<PayType>(() => wizardPayType(params.get('payType')));
  const [available, setAvailable] = useState<Record<PayType, boolean> | null>(null);
  const [order, setOrder] = useState<{ order: OrderView; reused: boolean } | null>(null);
  const [payUrl, setPayUrl] = useState<string | null>(null);
  const [paid, setPaid] = useState(false);
  const [busy, setBusy] = useState(false);

  const date = dateFormat(i18n.language, { dateStyle: 'long' });
  const tierKey = current ? STATUS_TIER[current._status] : undefined;
  const owner = current?.role === 'owner';
  const anyPay = available !== null && (available.alipay || available.wxpay);

  useEffect(() => {
    let live = true;
    paymentApi.config().then(
      (c) => {
        if (!live) return;
        setAvailable(c);
        // The chosen pay type must be one the server takes.
        setPayType((p) => (c[p] ? p : (PAY_TYPES.find((x) => c[x]) ?? p)));
      },
      () => live && setAvailable({ alipay: false, wxpay: false }),
    );
    return () => {
      live = false;
    };
  }, []);

  // Step 2: ask until the provider's notify has marked the order paid.
  const orderId = order?.order._id;
  useEffect(() => {
    if (step !== 2 || !orderId || paid) return;
    let live = true;
    const timer = window.setInterval(() => {
      paymentApi.list().then(
        (list) => {
          if (live && list.find((o) => o._id === orderId)?.status === ORDER_PAID) {
            setPaid(true);
            void refreshProjects();
          }
        },
        () => undefined,
      );
    }, POLL_MS);
    return () => {
      live = false;
      window.clearInterval(timer);
    };
  }, [step, orderId, paid]);

  async function fetchOrder() {
    if (!current) return;
    setBusy(true);
    try {
      setOrder(await paymentApi.order(pkg, current._id));
      setStep(1);
    } catch {
      // The request wrapper showed the notice.
    } finally {
      setBusy(false);
    }
  }

  async function pay() {
    if (!order) return;
    // Opened now, in the click, so no pop-up blocker stops it; pointed at the cashier once known.
    const win = payType === 'alipay' ? window.open('', '_blank') : null;
    setBusy(true);
    try {
      const a = await paymentApi.pay(order.order._id, payType);
      setPayUrl(a.url);
      if (win) win.location.href = a.url;
      setStep(2);
    } catch {
      // Payment-bridge failure: rejected with the bridge's message (the notice shows it).
      win?.close();
    } finally {
      setBusy(false);
    }
  }

  function restart() {
    setStep(0);
    setOrder(null);
    setPayUrl(null);
    setPaid(false);
  }

  return (
    <div className="upgrade" data-testid="upgrade">
      <Typography.Title level={3}>{t('upgrade.title')}</Typography.Title>
      {current ? (
        <Typography.Paragraph data-testid="upgrade-current">
          {current._name} ·{' '}
          {t('upgrade.current', { tier: tierKey && tierKey !== 'test' ? t(`upgrade.${tierKey}`) : 'test' })}
        </Typography.Paragraph>
      ) : null}
      <Steps
        className="home-card"
        current={step}
        items={[{ title: t('pay.step0') }, { title: t('pay.step1') }, { title: t('pay.step2') }]}
      />
      {available !== null && !anyPay ? (
        <Alert type="info" showIcon title={t('upgrade.noPayment')} className="home-card" />
      ) : null}
      {current && !owner && anyPay ? (
        <Alert type="warning" showIcon title={t('pay.ownerOnly')} className="home-card" />
      ) : null}

      {step === 0 ? (
        <>
          <Row gutter={[16, 16]}>
            {PACKAGES.map((tier) => (
              <Col key={tier} xs={24} md={8}>
                <Card
                  title={t(`upgrade.${tier}`)}
                  data-testid={`tier-${tier}`}
                  className={tier === pkg ? 'tier-chosen' : undefined}
                  style={tier === pkg ? { borderColor: '#1677ff' } : undefined}
                >
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
                  <Button
                    block
                    type={tier === pkg ? 'primary' : 'default'}
                    aria-pressed={tier === pkg}
                    onClick={() => setPkg(tier)}
                  >
                    {tier === pkg ? t('pay.chosen') : t('pay.choose')}
                  </Button>
                </Card>
              </Col>
            ))}
          </Row>
          {anyPay ? (
            <Space className="home-card" wrap>
              <Typography.Text>{t('pay.payType')}</Typography.Text>
              <Radio.Group value={payType} onChange={(e) => setPayType(e.target.value as PayType)}>
                {PAY_TYPES.map((p) => (
                  <Radio key={p} value={p} disabled={!available?.[p]}>
                    {t(`pay.${p}`)}
                  </Radio>
                ))}
              </Radio.Group>
              <Button
                type="primary"
                loading={busy}
                disabled={!owner || !available?.[payType]}
                onClick={fetchOrder}
              >
                {t('pay.next')}
              </Button>
            </Space>
          ) : null}
        </>
      ) : null}

      {step >= 1 && order ? (
        <Card className="home-card" data-testid="upgrade-order">
          <Descriptions
            column={1}
            items={[
              { key: 'id', label: t('pay.orderId'), children: order.order._id },
              { key: 'pkg', label: t('pay.version'), children: t(`upgrade.${order.order.detail.package}`) },
              {
                key: 'amount',
                label: t('pay.amount'),
                children: t('upgrade.price', { price: order.order.amount.toLocaleString('en') }),
              },
              { key: 'pay', label: t('pay.payType'), children: t(`pay.${payType}`) },
            ]}
          />
          {order.reused ? (
            <Typography.Paragraph type="secondary">{t('pay.reused')}</Typography.Paragraph>
          ) : null}
          {step === 1 ? (
            <Space>
              <Button onClick={restart}>{t('pay.back')}</Button>
              <Button type="primary" loading={busy} onClick={pay}>
                {t('pay.pay')}
              </Button>
            </Space>
          ) : null}
        </Card>
      ) : null}

      {step === 2 && order ? (
        paid ? (
          <Result
            status="success"
            data-testid="upgrade-paid"
            title={t('pay.paid')}
            subTitle={t('pay.paidHint', { tier: t(`upgrade.${order.order.detail.package}`) })}
          />
        ) : (
          <Card className="home-card" data-testid="upgrade-paying">
            {payType === 'wxpay' && payUrl ? (
              <Space direction="vertical" align="center">
                <QRCode value={payUrl} size={200} />
                <Typography.Text>{t('pay.scan')}</Typography.Text>
                <Typography.Text copyable code data-testid="upgrade-pay-url">
                  {payUrl}
                </Typography.Text>
              </Space>
            ) : (
              <Space direction="vertical">
                <Typography.Text>{t('pay.alipayOpened')}</Typography.Text>
                {payUrl ? (
                  <Typography.Link href={payUrl} target="_blank" rel="noopener">
                    {t('pay.alipayAgain')}
                  </Typography.Link>
                ) : null}
              </Space>
            )}
            <Typography.Paragraph type="secondary">{t('pay.waiting')}</Typography.Paragraph>
            <Button onClick={restart}>{t('pay.back')}</Button>
          </Card>
        )
      ) : null}

      <Typography.Paragraph className="login-hotline">
        <PhoneOutlined /> {t('upgrade.hotline')}
      </Typography.Paragraph>
    </div>
  );
}
