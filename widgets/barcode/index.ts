import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'barcode',
  category: 'other',
  schema,
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.BarcodeWidget),
  meta: {
    title: { zh: '条形码', en: 'Barcode' },
    icon: 'BarcodeOutlined',
    size: { width: 200, height: 80 },
  },
});
