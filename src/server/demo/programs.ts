/**
 * The CRM demo's two programs (issue #20 item 7), as a builder would make them:
 * - "标记已付款 / Mark order paid" runs on an order (the orders list's button, on the selected rows):
 *   it asks how the order was paid, refuses an order already paid (a message, nothing changed), and
 *   otherwise sets the status and the payment method and says so;
 * - "客户订单总额 / Customer order total" is a record trigger on orders: after an order is created,
 *   changed or removed, it sums the orders of that order's customer into the customer's order total
 *   (same transaction as the write) — of its customer before and after, so an order moved from one
 *   customer to another leaves both totals right.
 */
export const PAY_METHODS = ['现金 Cash', '转账 Transfer', '刷卡 Card'];

export function markPaidProgram() {
  return {
    name: '标记已付款 / Mark order paid',
    _option: { _entity: 'order' },
    _process: [
      {
        _type: 'input',
        _handle: 'form',
        _procedure: {
          fields: [
            { key: 'method', name: '付款方式 Payment', type: 'select', required: true, options: PAY_METHODS },
          ],
        },
      },
      {
        _type: 'condition',
        _handle: 'paid',
        _procedure: {
          if: "record.status == 'paid'",
          yes: [
            {
              _type: 'display',
              _handle: 'already',
              _procedure: { message: '{{ record.no }} 已付款 / already paid' },
            },
          ],
          no: [
            {
              _type: 'update',
              _handle: 'pay',
              _entity: 'order',
              _procedure: { id: 'record._id', values: { status: "'paid'", payment: 'params.method' } },
            },
            {
              _type: 'display',
              _handle: 'done',
              _procedure: { message: '{{ record.no }} 已付款 / paid ({{ params.method }})' },
            },
          ],
        },
      },
    ],
  };
}

export function orderTotalProgram() {
  // The customers the write touches: the order's customer before and after (an order moved from A to
  // B changes both totals); the second is skipped when it is the first or there is none.
  const sum = [
    {
      _type: 'query',
      _handle: 'orders',
      _entity: 'order',
      _procedure: {
        size: 1000,
        where: { field: 'customer', opt: 'set', value: { $expr: '[state.cid]' } },
      },
    },
    { _type: 'set', _handle: 'total', _procedure: { value: '0' } },
    {
      _type: 'loop',
      _handle: 'sum',
      _procedure: {
        over: 'state.orders',
        steps: [
          {
            _type: 'set',
            _handle: 'add',
            _procedure: { name: 'total', value: 'state.total + (state.item.amount || 0)' },
          },
        ],
      },
    },
    {
      _type: 'update',
      _handle: 'customer',
      _entity: 'customer',
      _procedure: { id: 'state.cid', values: { order_total: 'state.total' } },
    },
  ];
  return {
    name: '客户订单总额 / Customer order total',
    _option: { _entity: 'order', trigger: { on: ['create', 'update', 'remove'] } },
    _process: [
      {
        _type: 'set',
        _handle: 'cids',
        _procedure: { value: '[params.old?.customer, params.new?.customer]' },
      },
      {
        _type: 'loop',
        _handle: 'each',
        _procedure: {
          over: 'state.cids',
          as: 'cid',
          steps: [
            {
              _type: 'condition',
              _handle: 'has',
              _procedure: {
                if: 'state.cid && (state.cid_index == 0 || state.cid != state.cids[0])',
                yes: sum,
              },
            },
          ],
        },
      },
    ],
  };
}
