import { Card, Table, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ORDER_PAID, type OrderView } from '../../../shared/api/payment.ts';
import { paymentApi } from '../../api/payment.ts';
import { dateFormat } from '../../i18n/date-format.ts';

/** The user centre's order list (GET /api/payment/order/list): newest first. */
export function Orders() {
  const { t, i18n } = useTranslation();
  const [orders, setOrders] = useState<OrderView[] | null>(null);
  useEffect(() => {
    let live = true;
    paymentApi.list().then(
      (l) => live && setOrders(l),
      () => live && setOrders([]),
    );
    return () => {
      live = false;
    };
  }, []);
  const when = dateFormat(i18n.language, {
    dateStyle: 'medium',
    timeStyle: 'short',
  });
  return (
    <Card title={t('pay.orders')} className="home-card">
      <Table<OrderView>
        data-testid="order-list"
        rowKey="_id"
        size="small"
        loading={orders === null}
        dataSource={orders ?? []}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        scroll={{ x: true }}
        columns={[
          { title: t('pay.orderId'), dataIndex: '_id' },
          { title: t('pay.version'), render: (_, o) => t(`upgrade.${o.detail.package}`) },
          {
            title: t('pay.amount'),
            render: (_, o) => t('upgrade.price', { price: o.amount.toLocaleString('en') }),
          },
          { title: t('pay.created'), render: (_, o) => when.format(o.createdAt) },
          {
            title: t('pay.status'),
            render: (_, o) =>
              o.status === ORDER_PAID ? (
                <Tag color="green">{t('pay.statusPaid')}</Tag>
              ) : (
                <Tag>{t('pay.statusUnpaid')}</Tag>
              ),
          },
        ]}
      />
    </Card>
  );
}
