import { defineWidget } from '../define.ts';
import { QrcodeWidget } from './render.tsx';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'qrcode',
  category: 'other',
  schema,
  render: QrcodeWidget,
  meta: {
    title: { zh: '二维码', en: 'QR code' },
    icon: 'QrcodeOutlined',
    size: { width: 80, height: 80 },
  },
});
