import { bool, list, obj, str } from '../../src/shared/props.ts';
import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'form',
  category: 'baima',
  schema,
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.FormWidget),
  events: [{ name: 'onSubmit', payload: 'values', title: { zh: '提交时', en: 'On submit' } }],
  data: 'record',
  // Submitting (its button, or a submitForm action) checks the required fields and saves to the table.
  form: {
    submitEvent: 'onSubmit',
    drafts: true,
    target: (props) => ({
      entity: str(props.entity),
      required: list(props.fields)
        .map(obj)
        .filter((f) => bool(f.required))
        .map((f) => ({ key: str(f.field), label: str(f.label, str(f.field)) })),
      name: str(props.submitText, ''),
    }),
  },
  meta: {
    title: { zh: '表单', en: 'Form' },
    icon: 'FormOutlined',
    size: { width: 600, height: 400 },
  },
});
