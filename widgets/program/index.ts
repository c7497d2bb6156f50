import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'program',
  category: 'simple',
  schema,
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.ProgramWidget),
  events: [
    {
      name: 'onProgram',
      payload: 'object',
      title: { zh: '点击程序按钮时', en: 'On program button' },
      doc: { zh: '{ flow, name }：按钮的程序和名称', en: '{ flow, name }: the button’s program and name' },
    },
  ],
  // A button with no actions of its own runs its program (on the row it sits in, if any).
  defaultActions: {
    onProgram: (payload) => {
      const flow = (payload as { flow?: unknown } | null)?.flow;
      return typeof flow === 'string' && flow ? [{ type: 'runProgram', program: flow }] : [];
    },
  },
  // The designer's panel, loaded only there (the runtime never fetches it).
  panel: () => import('./panel.tsx').then((m) => m.ProgramPanel),
  meta: {
    title: { zh: '程序按钮', en: 'Program buttons' },
    icon: 'ThunderboltOutlined',
    size: { width: 400, height: 120 },
  },
});
