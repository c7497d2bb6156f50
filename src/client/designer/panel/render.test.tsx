/** Every kind's property panel (generated or custom) and the page panel server-render without throwing. */
import { renderToString } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { pageValidator, WIDGETS } from '../../../../widgets/index.ts';
import { DEFAULT_PAGE_LAYOUT, type PageDocument } from '../../../shared/page-document.ts';
import { PagePanel } from './PagePanel.tsx';
import { PropertyPanel } from './PropertyPanel.tsx';

// The registry's validator compiles once per process; on a shared, busy machine that takes a while.
// Custom panels are lazy chunks: load them up front, so the server render draws them, not a spinner.
beforeAll(async () => {
  pageValidator();
  await Promise.all(WIDGETS.map((w) => w.panel?.load()));
}, 60_000);

const widgets = WIDGETS.map((w) => ({ id: `w_${w.kind.replace(/-/g, '_')}`, kind: w.kind }));

describe.each(WIDGETS.map((w) => [w.kind, w] as const))('%s panel', (kind, def) => {
  it('renders every prop of the kind', () => {
    const html = renderToString(
      <PropertyPanel
        widget={{
          id: `w_${kind.replace(/-/g, '_')}`,
          kind,
          version: def.version,
          props: structuredClone(def.defaults),
          layout: { pc: { x: 0, y: 0, w: 1, h: 1 }, mobile: { x: 0, y: 0, w: 1, h: 1 } },
        }}
        project=""
        widgets={widgets}
        onChange={() => {}}
      />,
    );
    expect(html).toContain(`data-kind="${kind}"`);
    expect(html).not.toContain('panel.unknownEditor');
    if (def.panel) expect(html).toContain('custom-panel-');
    // Generated fields carry the prop name; custom panels may merge some (series rows, toggles).
    else for (const key of Object.keys(def.schema.properties)) expect(html, key).toContain(`prop-${key}`);
  });

  it('renders a bound prop as an expression input', () => {
    const key = Object.keys(def.schema.properties)[0]!;
    const html = renderToString(
      <PropertyPanel
        widget={{
          id: 'w1',
          kind,
          version: def.version,
          props: { ...structuredClone(def.defaults), [key]: { $expr: 'state.x' } },
          layout: { pc: { x: 0, y: 0, w: 1, h: 1 }, mobile: { x: 0, y: 0, w: 1, h: 1 } },
        }}
        project=""
        widgets={widgets}
        onChange={() => {}}
      />,
    );
    expect(html).toContain('state.x');
  });
});

it('page panel renders its parts', () => {
  const page: Omit<PageDocument, 'widgets'> = {
    id: 'p',
    title: 'Page',
    version: 1,
    layout: structuredClone(DEFAULT_PAGE_LAYOUT) as unknown as PageDocument['layout'],
    state: { count: { type: 'number', default: 1, persist: 'none' } },
    dataSources: [{ id: 'ds1', type: 'entity', entity: 'e1', page: { index: 1, size: 20 }, auto: true }],
  };
  const html = renderToString(<PagePanel page={page} project="" onChange={() => {}} />);
  expect(html).toContain('data-testid="page-panel"');
  expect(html).toContain('Page');
});
