import { defineWidget } from '../define.ts';
import { BarcodeWidget } from './render.tsx';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'barcode',
  category: 'other',
  schema,
  render: BarcodeWidget,
  meta: {
    title: { zh: '条形码', en: 'Barcode' },
    icon: 'BarcodeOutlined',
    size: { width: 200, height: 80 },
  },
});
