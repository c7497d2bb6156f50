import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'qrcode',
  category: 'other',
  schema,
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.QrcodeWidget),
  meta: {
    title: { zh: '二维码', en: 'QR code' },
    icon: 'QrcodeOutlined',
    size: { width: 80, height: 80 },
  },
});
