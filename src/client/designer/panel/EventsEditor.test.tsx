/** The events editor server-renders every action type with its generated fields, labelled in both languages. */
import { renderToString } from 'react-dom/server';
import { beforeAll, expect, it } from 'vitest';
import { pageValidator } from '../../../../widgets/index.ts';
import { ACTION_TYPES, actionFields, actionTitle, newAction } from './action-fields.ts';
import { PanelContext } from './context.ts';
import { EventsEditor } from './EventsEditor.tsx';
import type { Lang } from './schema-fields.ts';

// The registry's validator compiles once per process; on a shared, busy machine that takes a while.
beforeAll(() => {
  pageValidator();
}, 60_000);

it.each(['en', 'zh'] as const)('renders every action type and its fields (%s)', (lang: Lang) => {
  const events = { onClick: ACTION_TYPES.map((t) => newAction(t)) };
  const html = renderToString(
    <PanelContext.Provider value={{ project: '', widgets: [{ id: 'f1', kind: 'form' }], lang }}>
      <EventsEditor events={events} eventNames={['onClick']} onChange={() => {}} />
    </PanelContext.Provider>,
  );
  expect(html).not.toContain('panel.unknownEditor');
  ACTION_TYPES.forEach((type, i) => {
    expect(html, type).toContain(actionTitle(type, lang));
    for (const f of actionFields(type)) {
      expect(html, `${type}.${f.key}`).toContain(f.schema[lang === 'en' ? 'title' : 'x-zh'] as string);
      // Editors carry the field's test id (params and the code preview are lists of their own).
      if (f.editor !== 'params')
        expect(html, `${type}.${f.key}`).toContain(
          `data-testid="action-onClick.${i}-${f.key}${f.editor === 'code' ? '-edit' : ''}"`,
        );
    }
  });
});
