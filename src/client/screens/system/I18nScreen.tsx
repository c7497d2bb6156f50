import { PlusOutlined, TranslationOutlined } from '@ant-design/icons';
import { App, Button, Card, Input, Select, Space, Table, Tag, Typography } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { I18N_LANGUAGES_KEY, I18N_MODEL, LANG_CODE, readTexts, textKey } from '../../../shared/admin/i18n.ts';
import { type MenuEntry, menusApi, type PageSummary, pagesApi } from '../../api/pages.ts';
import { get, post } from '../../api/request.ts';
import { fetchShare, setShare } from '../../api/share.ts';
import { forgetProjectTexts } from '../../runtime/project-texts.ts';
import { useProject } from '../workbench/workbench-context.ts';
import { type SaveState, useDebouncedSave } from './admin/use-debounced-save.ts';

/** The spec's translation save debounce. */
export const TRANSLATION_SAVE_MS = 500;
const KNOWN: Record<string, string> = {
  en: 'English',
  zh: '中文',
  jp: '日本語',
  vie: 'Tiếng Việt',
  yue: '粵語',
};

interface Row {
  id: string;
  kind: 'page' | 'menu' | 'widget' | 'field' | 'option';
  source: string;
  /** For widget captions and options: the page, or the table and field, or the option set. */
  where?: string;
}

function SaveTag({ state }: { state: SaveState }) {
  const { t } = useTranslation();
  if (state === 'idle') return null;
  const color = state === 'failed' ? 'error' : state === 'saved' ? 'success' : 'processing';
  return (
    <Tag color={color} data-testid="i18n-save-state" data-state={state}>
      {t(`adm.save.${state}`)}
    </Tag>
  );
}

/** /system/i18n: the system's languages and the translations of its page titles and menu names. */
export default function I18nScreen() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const project = useProject();
  const p = project._id;
  const ref = useCallback((key: string) => ({ model: I18N_MODEL, type: 'project' as const, key }), []);
  const [languages, setLanguages] = useState<Record<string, string>>({});
  const [lang, setLang] = useState<string | null>(null);
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [rows, setRows] = useState<Row[] | null>(null);
  const [newCode, setNewCode] = useState<string>('');
  const [busy, setBusy] = useState(false);
  const [filter, setFilter] = useState('');

  useEffect(() => {
    void fetchShare<Record<string, string>>(p, ref(I18N_LANGUAGES_KEY)).then((v) => {
      const langs = v && typeof v === 'object' ? v : {};
      setLanguages(langs);
      setLang((cur) => cur ?? Object.keys(langs)[0] ?? null);
    });
    void Promise.all([
      pagesApi.list(p),
      menusApi.list(p),
      // Widget captions of published pages and option labels (fields' own lists, option sets).
      get<Row[]>(`/api/admin/project/${p}/i18n/sources`, { share: false }).catch(() => [] as Row[]),
    ]).then(([pages, menus, sources]: [PageSummary[], MenuEntry[], Row[]]) =>
      setRows([
        ...pages.map((pg) => ({ id: pg._id, kind: 'page' as const, source: pg.name })),
        ...menus.map((m) => ({ id: m._id, kind: 'menu' as const, source: m._name })),
        ...sources,
      ]),
    );
  }, [p, ref]);

  useEffect(() => {
    if (!lang) return;
    setTexts({});
    void fetchShare(p, ref(textKey(lang))).then((v) => setTexts(readTexts(v)));
  }, [p, lang, ref]);

  const saver = useDebouncedSave<{ lang: string; texts: Record<string, string> }>(async (v) => {
    await setShare(p, ref(textKey(v.lang)), v.texts);
    forgetProjectTexts(p);
  }, TRANSLATION_SAVE_MS);

  function edit(id: string, text: string) {
    if (!lang) return;
    const next = { ...texts };
    if (text === '') delete next[id];
    else next[id] = text;
    setTexts(next);
    saver.change({ lang, texts: next });
  }

  async function saveLanguages(next: Record<string, string>) {
    await setShare(p, ref(I18N_LANGUAGES_KEY), next);
    setLanguages(next);
    forgetProjectTexts(p);
  }

  async function addLanguage() {
    const code = newCode.trim();
    if (!LANG_CODE.test(code)) {
      message.error(t('adm.i18n.badCode'));
      return;
    }
    await saveLanguages({ ...languages, [code]: KNOWN[code] ?? code });
    setLang(code);
    setNewCode('');
    message.success(t('adm.saved'));
  }

  async function removeLanguage(code: string) {
    const next = { ...languages };
    delete next[code];
    await saveLanguages(next);
    if (lang === code) setLang(Object.keys(next)[0] ?? null);
  }

  async function machineTranslate() {
    if (!lang || !rows) return;
    const map = Object.fromEntries(
      rows.filter((r) => !texts[r.id] && r.source.trim()).map((r) => [r.id, r.source]),
    );
    if (Object.keys(map).length === 0) {
      message.info(t('adm.i18n.nothingToTranslate'));
      return;
    }
    setBusy(true);
    try {
      const out = await post<Record<string, string>>(
        '/api/common/utils/translate',
        { map, to: lang },
        { share: false },
      );
      const next = { ...texts, ...out };
      setTexts(next);
      saver.change({ lang, texts: next });
      message.success(t('adm.i18n.translated', { count: Object.keys(out).length }));
    } finally {
      setBusy(false);
    }
  }

  const shown = useMemo(
    () =>
      (rows ?? []).filter(
        (r) =>
          !filter ||
          r.source.toLowerCase().includes(filter.toLowerCase()) ||
          (r.where ?? '').toLowerCase().includes(filter.toLowerCase()),
      ),
    [rows, filter],
  );

  return (
    <Space direction="vertical" size="middle" className="system-admin2" data-testid="system-i18n">
      <Card title={t('adm.i18n.languages')} size="small">
        <Space wrap>
          {Object.entries(languages).map(([code, name]) => (
            <Tag
              key={code}
              closable
              onClose={(e) => {
                e.preventDefault();
                void removeLanguage(code);
              }}
              color={code === lang ? 'blue' : undefined}
              data-testid={`i18n-lang-${code}`}
            >
              {name} ({code})
            </Tag>
          ))}
          <Select
            showSearch
            style={{ width: 200 }}
            value={newCode || undefined}
            placeholder={t('adm.i18n.addPlaceholder')}
            onChange={(v: string) => setNewCode(v)}
            onSearch={(v) => setNewCode(v)}
            options={Object.entries(KNOWN)
              .filter(([c]) => !languages[c])
              .map(([c, n]) => ({ value: c, label: `${n} (${c})` }))}
            data-testid="i18n-new-lang"
          />
          <Button icon={<PlusOutlined />} onClick={() => void addLanguage()} data-testid="i18n-add-lang">
            {t('adm.i18n.add')}
          </Button>
        </Space>
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
          {t('adm.i18n.help')}
        </Typography.Paragraph>
      </Card>
      <Card
        size="small"
        title={
          <Space wrap>
            {t('adm.i18n.texts')}
            <Select
              style={{ minWidth: 140 }}
              value={lang ?? undefined}
              onChange={(v: string) => {
                void saver.flush();
                setLang(v);
              }}
              options={Object.entries(languages).map(([c, n]) => ({ value: c, label: n }))}
              placeholder={t('adm.i18n.pickLang')}
              data-testid="i18n-lang"
            />
            <SaveTag state={saver.state} />
          </Space>
        }
      >
        <Space wrap style={{ marginBottom: 8 }}>
          <Input.Search
            allowClear
            placeholder={t('adm.i18n.search')}
            onChange={(e) => setFilter(e.target.value)}
            style={{ maxWidth: 320 }}
          />
          <Button
            icon={<TranslationOutlined />}
            disabled={!lang}
            loading={busy}
            onClick={() => void machineTranslate()}
            data-testid="i18n-machine"
          >
            {t('adm.i18n.machine')}
          </Button>
        </Space>
        <Table<Row>
          rowKey="id"
          size="small"
          loading={rows === null}
          dataSource={shown}
          pagination={{ pageSize: 50, hideOnSinglePage: true }}
          scroll={{ x: 520 }}
          columns={[
            {
              title: t('adm.i18n.kind'),
              dataIndex: 'kind',
              width: 90,
              render: (k: Row['kind']) => <Tag>{t(`adm.i18n.kind_${k}`)}</Tag>,
            },
            {
              title: t('adm.i18n.source'),
              dataIndex: 'source',
              width: 220,
              render: (_, r) => (
                <span>
                  {r.source}
                  {r.where ? (
                    <Typography.Text type="secondary" className="i18n-where">
                      {r.where}
                    </Typography.Text>
                  ) : null}
                </span>
              ),
            },
            {
              title: t('adm.i18n.translation'),
              key: 'text',
              render: (_, r) => (
                <Input
                  value={texts[r.id] ?? ''}
                  disabled={!lang}
                  maxLength={2000}
                  placeholder={r.source}
                  onChange={(e) => edit(r.id, e.target.value)}
                  data-testid={`i18n-text-${r.id}`}
                />
              ),
            },
          ]}
        />
      </Card>
    </Space>
  );
}
