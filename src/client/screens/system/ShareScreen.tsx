import { DeleteOutlined, EditOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import {
  App,
  Button,
  Card,
  Empty,
  Form,
  Input,
  InputNumber,
  List,
  Modal,
  Select,
  Space,
  Table,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import {
  counterKey,
  formatNumber,
  NUMBERING_DATES,
  NUMBERING_KEY,
  NUMBERING_MODEL,
  NUMBERING_PREFIX,
  NUMBERING_RESETS,
  type NumberingRule,
  readRule,
} from '../../../shared/admin/numbering.ts';
import {
  OPTION_SET_KEY,
  type OptionSet,
  readOptionSet,
  SELECTION_MODEL,
} from '../../../shared/admin/option-sets.ts';
import { post } from '../../api/request.ts';
import { fetchShare, queryShare, removeShare, setShare } from '../../api/share.ts';
import { useProject } from '../workbench/workbench-context.ts';

const TABS = ['selection', 'increment', 'config'] as const;
type TabKey = (typeof TABS)[number];

function OptionSets({ p }: { p: string }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [sets, setSets] = useState<{ key: string; set: OptionSet }[] | null>(null);
  const [editing, setEditing] = useState<{ key: string; set: OptionSet; isNew: boolean } | null>(null);
  const [form] = Form.useForm<{ key: string; name: string; list: string[] }>();
  const reload = useCallback(() => {
    void queryShare(p, SELECTION_MODEL, 'project').then((items) =>
      setSets(
        items.map((i) => ({ key: i._key, set: readOptionSet(i._value) ?? { name: i._key, list: [] } })),
      ),
    );
  }, [p]);
  useEffect(reload, [reload]);

  function open(key: string, set: OptionSet, isNew: boolean) {
    setEditing({ key, set, isNew });
    form.setFieldsValue({ key, name: set.name, list: set.list });
  }

  async function save() {
    const v = await form.validateFields();
    await setShare(
      p,
      { model: SELECTION_MODEL, type: 'project', key: v.key },
      { name: v.name, list: v.list },
    );
    message.success(t('adm.saved'));
    setEditing(null);
    reload();
  }

  return (
    <Card
      size="small"
      title={t('adm.share.sets')}
      extra={
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => open('', { name: '', list: [] }, true)}
          data-testid="set-new"
        >
          {t('adm.share.newSet')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('adm.share.setsHelp')}</Typography.Paragraph>
      <List
        loading={sets === null}
        dataSource={sets ?? []}
        locale={{
          emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('adm.share.noSets')} />,
        }}
        renderItem={(s) => (
          <List.Item
            data-testid={`set-${s.key}`}
            actions={[
              <Button
                key="e"
                size="small"
                icon={<EditOutlined />}
                onClick={() => open(s.key, s.set, false)}
                aria-label={t('adm.edit')}
              />,
              <Button
                key="r"
                size="small"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('adm.remove')}
                onClick={() =>
                  modal.confirm({
                    title: t('adm.share.removeSet', { name: s.set.name }),
                    content: t('adm.share.removeSetBody'),
                    okButtonProps: { danger: true },
                    onOk: async () => {
                      await removeShare(p, { model: SELECTION_MODEL, type: 'project', key: s.key });
                      reload();
                    },
                  })
                }
              />,
            ]}
          >
            <List.Item.Meta
              title={
                <Space wrap>
                  {s.set.name}
                  <Typography.Text type="secondary" code>
                    {s.key}
                  </Typography.Text>
                </Space>
              }
              description={
                <Space size={[4, 4]} wrap>
                  {s.set.list.map((o) => (
                    <Tag key={o}>{o}</Tag>
                  ))}
                </Space>
              }
            />
          </List.Item>
        )}
      />
      <Modal
        open={editing !== null}
        title={editing?.isNew ? t('adm.share.newSet') : t('adm.share.editSet')}
        onCancel={() => setEditing(null)}
        onOk={() => void save()}
        destroyOnHidden
        forceRender
      >
        <Form form={form} layout="vertical" data-testid="set-form">
          <Form.Item
            name="key"
            label={t('adm.share.key')}
            rules={[{ required: true, pattern: OPTION_SET_KEY, message: t('adm.share.keyRule') }]}
          >
            <Input disabled={!editing?.isNew} maxLength={40} data-testid="set-key" />
          </Form.Item>
          <Form.Item name="name" label={t('adm.share.name')} rules={[{ required: true, max: 60 }]}>
            <Input maxLength={60} data-testid="set-name" />
          </Form.Item>
          <Form.Item
            name="list"
            label={t('adm.share.options')}
            rules={[{ required: true, type: 'array', min: 1, message: t('adm.share.optionsRule') }]}
          >
            <Select
              mode="tags"
              tokenSeparators={[',', '，']}
              open={false}
              suffixIcon={null}
              data-testid="set-list"
            />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}

const DEFAULT_RULE: NumberingRule = { name: '', prefix: '', date: '', digits: 4, reset: 'never' };

function NumberingRules({ p }: { p: string }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [rules, setRules] = useState<{ key: string; rule: NumberingRule }[] | null>(null);
  const [editing, setEditing] = useState<{ isNew: boolean } | null>(null);
  const [form] = Form.useForm<NumberingRule & { key: string }>();
  const watched = Form.useWatch([], form) as (NumberingRule & { key: string }) | undefined;
  const reload = useCallback(() => {
    void queryShare(p, NUMBERING_MODEL, 'project', `^increment\\.`).then((items) =>
      setRules(
        items.map((i) => ({
          key: i._key.slice(NUMBERING_PREFIX.length),
          rule: readRule(i._value) ?? DEFAULT_RULE,
        })),
      ),
    );
  }, [p]);
  useEffect(reload, [reload]);

  function open(key: string, rule: NumberingRule, isNew: boolean) {
    setEditing({ isNew });
    form.setFieldsValue({ key, ...rule });
  }

  async function save() {
    const v = await form.validateFields();
    const { key, ...rule } = v;
    await setShare(p, { model: NUMBERING_MODEL, type: 'project', key: `${NUMBERING_PREFIX}${key}` }, rule);
    message.success(t('adm.saved'));
    setEditing(null);
    reload();
  }

  const preview = watched ? formatNumber({ ...DEFAULT_RULE, ...readRule(watched) }, 1, Date.now()) : '';

  return (
    <Card
      size="small"
      title={t('adm.share.rules')}
      extra={
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => open('', DEFAULT_RULE, true)}
          data-testid="rule-new"
        >
          {t('adm.share.newRule')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('adm.share.rulesHelp')}</Typography.Paragraph>
      <Table
        rowKey="key"
        size="small"
        loading={rules === null}
        dataSource={rules ?? []}
        pagination={false}
        scroll={{ x: 560 }}
        columns={[
          { title: t('adm.share.name'), render: (_, r) => r.rule.name },
          {
            title: t('adm.share.key'),
            dataIndex: 'key',
            render: (k: string) => <Typography.Text code>{k}</Typography.Text>,
          },
          {
            title: t('adm.share.example'),
            render: (_, r) => <Typography.Text code>{formatNumber(r.rule, 1, Date.now())}</Typography.Text>,
          },
          { title: t('adm.share.reset'), render: (_, r) => t(`adm.share.reset_${r.rule.reset}`) },
          {
            title: '',
            width: 130,
            render: (_, r) => (
              <Space>
                <Button
                  size="small"
                  icon={<EditOutlined />}
                  aria-label={t('adm.edit')}
                  onClick={() => open(r.key, r.rule, false)}
                />
                <Button
                  size="small"
                  icon={<ReloadOutlined />}
                  aria-label={t('adm.share.resetCounter')}
                  title={t('adm.share.resetCounter')}
                  onClick={() =>
                    modal.confirm({
                      title: t('adm.share.resetCounterTitle', { name: r.rule.name }),
                      content: t('adm.share.resetCounterBody'),
                      onOk: async () => {
                        await post(`/api/app/share/${p}/increment/reset`, {
                          key: counterKey(r.key, r.rule, Date.now()),
                        });
                        message.success(t('adm.share.counterReset'));
                      },
                    })
                  }
                />
                <Button
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('adm.remove')}
                  onClick={() =>
                    modal.confirm({
                      title: t('adm.share.removeRule', { name: r.rule.name }),
                      okButtonProps: { danger: true },
                      onOk: async () => {
                        await removeShare(p, {
                          model: NUMBERING_MODEL,
                          type: 'project',
                          key: `${NUMBERING_PREFIX}${r.key}`,
                        });
                        reload();
                      },
                    })
                  }
                />
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={editing !== null}
        title={editing?.isNew ? t('adm.share.newRule') : t('adm.share.editRule')}
        onCancel={() => setEditing(null)}
        onOk={() => void save()}
        destroyOnHidden
        forceRender
      >
        <Form form={form} layout="vertical" data-testid="rule-form">
          <Form.Item
            name="key"
            label={t('adm.share.key')}
            rules={[{ required: true, pattern: NUMBERING_KEY, message: t('adm.share.keyRule') }]}
          >
            <Input disabled={!editing?.isNew} maxLength={40} data-testid="rule-key" />
          </Form.Item>
          <Form.Item name="name" label={t('adm.share.name')} rules={[{ required: true, max: 60 }]}>
            <Input maxLength={60} data-testid="rule-name" />
          </Form.Item>
          <Form.Item name="prefix" label={t('adm.share.prefix')}>
            <Input maxLength={20} data-testid="rule-prefix" />
          </Form.Item>
          <Form.Item name="date" label={t('adm.share.datePart')}>
            <Select options={NUMBERING_DATES.map((d) => ({ value: d, label: d || t('adm.share.noDate') }))} />
          </Form.Item>
          <Form.Item name="digits" label={t('adm.share.digits')} rules={[{ required: true }]}>
            <InputNumber min={1} max={12} precision={0} data-testid="rule-digits" />
          </Form.Item>
          <Form.Item name="reset" label={t('adm.share.reset')}>
            <Select options={NUMBERING_RESETS.map((r) => ({ value: r, label: t(`adm.share.reset_${r}`) }))} />
          </Form.Item>
          <Typography.Text type="secondary">
            {t('adm.share.example')}:{' '}
            <Typography.Text code data-testid="rule-preview">
              {preview}
            </Typography.Text>
          </Typography.Text>
        </Form>
      </Modal>
    </Card>
  );
}

const GLOBAL = { model: 'config', type: 'project' as const, key: 'global' };

/** Global config: named values programs and pages read (`config/project/global`). */
function GlobalConfig({ p }: { p: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [rows, setRows] = useState<{ k: string; v: string }[] | null>(null);
  useEffect(() => {
    void fetchShare<Record<string, unknown>>(p, GLOBAL).then((v) =>
      setRows(
        Object.entries(v && typeof v === 'object' ? v : {}).map(([k, x]) => ({ k, v: String(x ?? '') })),
      ),
    );
  }, [p]);
  async function save() {
    const list = rows ?? [];
    const keys = list.map((r) => r.k.trim());
    if (keys.some((k) => !/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(k)) || new Set(keys).size !== keys.length) {
      message.error(t('adm.share.configKeys'));
      return;
    }
    await setShare(p, GLOBAL, Object.fromEntries(list.map((r) => [r.k.trim(), r.v])));
    message.success(t('adm.saved'));
  }
  const set = (i: number, patch: Partial<{ k: string; v: string }>) =>
    setRows((rs) => (rs ?? []).map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <Card size="small" title={t('adm.share.global')} data-testid="global-config">
      <Typography.Paragraph type="secondary">{t('adm.share.globalHelp')}</Typography.Paragraph>
      <Space direction="vertical" style={{ width: '100%' }}>
        {(rows ?? []).map((r, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity while their key is typed
          <Space key={i} wrap>
            <Input
              value={r.k}
              placeholder={t('adm.share.key')}
              onChange={(e) => set(i, { k: e.target.value })}
              maxLength={64}
              style={{ width: 180 }}
            />
            <Input
              value={r.v}
              placeholder={t('adm.share.value')}
              onChange={(e) => set(i, { v: e.target.value })}
              maxLength={2000}
              style={{ width: 260 }}
            />
            <Button
              icon={<DeleteOutlined />}
              aria-label={t('adm.remove')}
              onClick={() => setRows((rs) => (rs ?? []).filter((_, j) => j !== i))}
            />
          </Space>
        ))}
        <Space>
          <Button icon={<PlusOutlined />} onClick={() => setRows((rs) => [...(rs ?? []), { k: '', v: '' }])}>
            {t('adm.share.addValue')}
          </Button>
          <Button type="primary" onClick={() => void save()}>
            {t('adm.save.button')}
          </Button>
        </Space>
      </Space>
    </Card>
  );
}

/** /system/share (with children selection, increment, config): option sets, auto-numbering, global config. */
export default function ShareScreen() {
  const { t } = useTranslation();
  const p = useProject()._id;
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const base = pathname.slice(0, pathname.indexOf('/system/share') + '/system/share'.length);
  const child = pathname.slice(base.length + 1) as TabKey;
  const active: TabKey = TABS.includes(child) ? child : 'selection';
  return (
    <div className="system-admin2" data-testid="system-share">
      <Tabs
        activeKey={active}
        onChange={(k) => navigate(`${base}/${k}`)}
        items={[
          { key: 'selection', label: t('adm.share.tabSelection'), children: <OptionSets p={p} /> },
          { key: 'increment', label: t('adm.share.tabIncrement'), children: <NumberingRules p={p} /> },
          { key: 'config', label: t('adm.share.tabConfig'), children: <GlobalConfig p={p} /> },
        ]}
      />
    </div>
  );
}
