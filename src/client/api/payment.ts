/** Typed payment calls (runtime spec §7 "Payment"). */
import type { OrderView, PackageType, PayAnswer, PayType } from '../../shared/api/payment.ts';
import { get, post } from './request.ts';

export const paymentApi = {
  /** Which pay types the server takes. */
  config: () => get<Record<PayType, boolean>>('/api/payment/config', { share: false }),
  /** Step 1: the package order (an unpaid one of the same package from the last day is reused). */
  order: (type: PackageType, project: string) =>
    post<{ order: OrderView; reused: boolean }>('/api/payment/order/package', { type, project }),
  list: () => get<OrderView[]>('/api/payment/order/list', { share: false }),
  /** Step 2: the cashier URL (alipay) or the QR code text (wxpay). */
  pay: (orderId: string, payType: PayType) =>
    post<PayAnswer>(`/api/payment/trade/pay/${orderId}/${payType}`, {}),
};
