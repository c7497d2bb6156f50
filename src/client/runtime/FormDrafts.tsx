/**
 * Drafts around a form widget: what the user types is kept (debounced) as the form's draft in
 * localStorage; when the form opens again with a draft waiting, a bar offers to restore or discard
 * it. Restoring fills the form by handing the values in as its record and re-mounting it.
 */
import { Alert, Button, Space } from 'antd';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { clearDraft, type Draft, findDraft, saveDraft } from './drafts.ts';
import type { PageStore } from './page-store.ts';

const SAVE_DELAY_MS = 500;

/** The inputs of an antd form by field name (antd gives each control the field name as its id). */
function readInputs(root: HTMLElement): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const el of root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(
    'form input[id], form textarea[id]',
  )) {
    if (el.type === 'checkbox' || el.type === 'radio' || el.type === 'hidden') continue;
    out[el.id] = el.value;
  }
  return out;
}

export function FormDrafts(props: { page: string; form: string; store: PageStore; children: ReactNode }) {
  const { page, form, store } = props;
  const { t, i18n } = useTranslation();
  const root = useRef<HTMLDivElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const [offer, setOffer] = useState<Draft | undefined>(() => findDraft(page, form));
  const [generation, setGeneration] = useState(0);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const onInput = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const el = root.current;
      if (!el) return;
      const values = readInputs(el);
      if (Object.values(values).some((v) => v !== '')) saveDraft(page, form, values);
    }, SAVE_DELAY_MS);
  };

  const restore = () => {
    if (!offer) return;
    store.setState((s) => {
      const prev = s.data[form] ?? { rows: [], meta: {}, loading: false };
      return {
        data: { ...s.data, [form]: { ...prev, rows: [{ ...(prev.rows[0] ?? {}), ...offer.values }] } },
      };
    });
    setOffer(undefined);
    setGeneration((g) => g + 1);
  };
  const discard = () => {
    clearDraft(page, form);
    setOffer(undefined);
  };

  return (
    <div ref={root} onInput={onInput} data-drafts={form}>
      {offer && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 8 }}
          title={t('runtime.draftFound', { time: new Date(offer.savedAt).toLocaleString(i18n.language) })}
          action={
            <Space>
              <Button size="small" type="primary" onClick={restore}>
                {t('runtime.draftRestore')}
              </Button>
              <Button size="small" onClick={discard}>
                {t('runtime.draftDiscard')}
              </Button>
            </Space>
          }
        />
      )}
      <div key={generation}>{props.children}</div>
    </div>
  );
}
