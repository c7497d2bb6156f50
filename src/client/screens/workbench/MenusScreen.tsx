import {
  ApiOutlined,
  ArrowDownOutlined,
  ArrowUpOutlined,
  DeleteOutlined,
  EditOutlined,
  FolderOutlined,
  PlusOutlined,
} from '@ant-design/icons';
import { App, Button, Form, Input, Modal, Select, Space, Spin, Table, Tag } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  MENU_TYPES,
  type MenuEntry,
  type MenuType,
  menusApi,
  type PageSummary,
  pagesApi,
} from '../../api/pages.ts';
import { type Entity, wb } from '../../api/workbench.ts';
import { type MenuRow, menuRows, moveMenu, parentChoices } from './menu-order.ts';
import { showServerError } from './server-errors.ts';
import { useProject } from './workbench-context.ts';

/** Directories and custom pages cannot bind programs (builder spec §5). */
const NO_PROGRAMS: readonly MenuType[] = ['dir', 'page'];

type Dialog = { kind: 'edit'; menu?: MenuEntry } | { kind: 'bind'; menu: MenuEntry } | null;

interface Targets {
  tables: Entity[];
  pages: PageSummary[];
  programs: { _id: string; _name: string }[];
}

/** /dev/menus: the project's menu tree; create, rename, type and target, move, bind programs, remove. */
export default function MenusScreen() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const p = useProject()._id;
  const [menus, setMenus] = useState<MenuEntry[] | null>(null);
  const [targets, setTargets] = useState<Targets>({ tables: [], pages: [], programs: [] });
  const [dialog, setDialog] = useState<Dialog>(null);
  const [busy, setBusy] = useState(false);

  const reload = useCallback(async () => {
    setMenus(await menusApi.list(p));
  }, [p]);
  useEffect(() => {
    reload().catch(() => setMenus([]));
    Promise.all([wb.entities(p), pagesApi.list(p), menusApi.flows(p)]).then(
      ([tables, pages, flows]) =>
        setTargets({ tables, pages, programs: flows.filter((f) => f._type === 'program') }),
      () => {},
    );
  }, [p, reload]);

  async function move(id: string, by: -1 | 1) {
    const order = menus ? moveMenu(menus, id, by) : null;
    if (!order) return;
    setBusy(true);
    try {
      await menusApi.sort(p, order);
    } finally {
      setBusy(false);
      await reload();
    }
  }

  function remove(m: MenuEntry) {
    modal.confirm({
      title: t('menus.removeTitle', { name: m._name }),
      content: t('menus.removeBody'),
      okText: t('common.remove'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        await menusApi.remove(p, m._id);
        message.success(t('menus.removed'));
        await reload();
      },
    });
  }

  if (!menus) return <Spin className="center-pad" />;
  const target = (m: MenuEntry) => {
    if (!m._value) return null;
    if (m._type === 'table') return targets.tables.find((x) => x._id === m._value)?._name ?? m._value;
    return targets.pages.find((x) => x._id === m._value)?.name ?? m._value;
  };
  const programName = (id: string) => targets.programs.find((x) => x._id === id)?._name ?? id;

  return (
    <div className="wb-pad" data-testid="menus-screen">
      <div className="wb-bar">
        <h2 className="wb-heading">{t('menus.title')}</h2>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setDialog({ kind: 'edit' })}
          data-testid="new-menu"
        >
          {t('menus.create')}
        </Button>
      </div>
      <Table<MenuRow<MenuEntry>>
        rowKey={(r) => r.menu._id}
        size="middle"
        loading={busy}
        pagination={false}
        dataSource={menuRows(menus)}
        locale={{ emptyText: t('menus.empty') }}
        onRow={(r) => ({ 'data-testid': `menu-row-${r.menu._name}` }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          {
            title: t('menus.name'),
            render: (_, r) => (
              <span style={{ paddingInlineStart: r.depth * 24 }}>
                {r.menu._type === 'dir' ? <FolderOutlined /> : null} {r.menu._name}
              </span>
            ),
          },
          {
            title: t('menus.type'),
            width: 120,
            render: (_, r) => <Tag data-testid="menu-type">{t(`menus.types.${r.menu._type}`)}</Tag>,
          },
          {
            title: t('menus.target'),
            render: (_, r) => <span data-testid="menu-target">{target(r.menu)}</span>,
          },
          {
            title: t('menus.programs'),
            render: (_, r) => r.menu._program.map((id) => <Tag key={id}>{programName(id)}</Tag>),
          },
          {
            title: t('menus.actions'),
            width: 200,
            render: (_, r) => (
              <Space size={0}>
                <Button
                  type="text"
                  size="small"
                  icon={<ArrowUpOutlined />}
                  disabled={!r.canUp || busy}
                  onClick={() => void move(r.menu._id, -1)}
                  aria-label={t('menus.up')}
                  data-testid="menu-up"
                />
                <Button
                  type="text"
                  size="small"
                  icon={<ArrowDownOutlined />}
                  disabled={!r.canDown || busy}
                  onClick={() => void move(r.menu._id, 1)}
                  aria-label={t('menus.down')}
                  data-testid="menu-down"
                />
                <Button
                  type="text"
                  size="small"
                  icon={<EditOutlined />}
                  onClick={() => setDialog({ kind: 'edit', menu: r.menu })}
                  aria-label={t('common.edit')}
                  data-testid="menu-edit"
                />
                <Button
                  type="text"
                  size="small"
                  icon={<ApiOutlined />}
                  disabled={NO_PROGRAMS.includes(r.menu._type)}
                  title={NO_PROGRAMS.includes(r.menu._type) ? t('menus.noPrograms') : t('menus.bind')}
                  onClick={() => setDialog({ kind: 'bind', menu: r.menu })}
                  aria-label={t('menus.bind')}
                  data-testid="menu-bind"
                />
                <Button
                  type="text"
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  onClick={() => remove(r.menu)}
                  aria-label={t('common.remove')}
                  data-testid="menu-remove"
                />
              </Space>
            ),
          },
        ]}
      />
      {dialog?.kind === 'edit' ? (
        <MenuModal
          menu={dialog.menu}
          menus={menus}
          targets={targets}
          onClose={() => setDialog(null)}
          onSaved={async () => {
            message.success(t('menus.saved'));
            await reload();
          }}
        />
      ) : null}
      {dialog?.kind === 'bind' ? (
        <BindModal
          menu={dialog.menu}
          programs={targets.programs}
          onClose={() => setDialog(null)}
          onSaved={reload}
        />
      ) : null}
    </div>
  );
}

interface MenuValues {
  name: string;
  type: MenuType;
  parent: string | null;
  value: string | null;
}

function MenuModal({
  menu,
  menus,
  targets,
  onClose,
  onSaved,
}: {
  menu?: MenuEntry;
  menus: MenuEntry[];
  targets: Targets;
  onClose(): void;
  onSaved(): Promise<void>;
}) {
  const { t } = useTranslation();
  const p = useProject()._id;
  const [form] = Form.useForm<MenuValues>();
  const type = Form.useWatch('type', form) ?? menu?._type ?? 'table';
  const [busy, setBusy] = useState(false);

  async function finish(v: MenuValues) {
    setBusy(true);
    const input = {
      name: v.name.trim(),
      type: v.type,
      parent: v.parent ?? null,
      value: v.type === 'dir' ? null : (v.value ?? null),
    };
    try {
      if (menu) await menusApi.update(p, menu._id, input);
      else await menusApi.create(p, input);
      await onSaved();
      onClose();
    } catch (err) {
      showServerError(form, err, { name: 'name', value: 'value', parent: 'parent', type: 'type' });
    } finally {
      setBusy(false);
    }
  }

  const valueOptions =
    type === 'table'
      ? targets.tables.map((e) => ({ value: e._id, label: e._name }))
      : type === 'page' || type === 'display'
        ? targets.pages
            .filter((pg) => type === 'page' || pg.display)
            .map((pg) => ({ value: pg._id, label: pg.name }))
        : [];

  return (
    <Modal
      open
      title={menu ? t('menus.edit') : t('menus.create')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      destroyOnHidden
    >
      <Form<MenuValues>
        form={form}
        layout="vertical"
        name="menu-form"
        onFinish={finish}
        initialValues={{
          name: menu?._name ?? '',
          type: menu?._type ?? 'table',
          parent: menu?._parent ?? null,
          value: menu?._value ?? null,
        }}
        onValuesChange={(changed: Partial<MenuValues>) => {
          if ('type' in changed) form.setFieldValue('value', null);
        }}
      >
        <Form.Item
          name="name"
          label={t('menus.name')}
          rules={[{ required: true, whitespace: true, message: t('common.required') }]}
        >
          <Input maxLength={128} autoFocus />
        </Form.Item>
        <Form.Item name="type" label={t('menus.type')}>
          <Select options={MENU_TYPES.map((k) => ({ value: k, label: t(`menus.types.${k}`) }))} />
        </Form.Item>
        {type !== 'dir' ? (
          <Form.Item
            name="value"
            label={type === 'table' ? t('menus.table') : t('menus.page')}
            rules={[
              {
                required: type !== 'display',
                message: type === 'table' ? t('menus.chooseTable') : t('menus.choosePage'),
              },
            ]}
          >
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              options={valueOptions}
              notFoundContent={type === 'table' ? t('pages.noTables') : t('menus.noPages')}
            />
          </Form.Item>
        ) : null}
        <Form.Item name="parent" label={t('menus.parent')}>
          <Select
            allowClear
            placeholder={t('menus.top')}
            options={parentChoices(menus, menu?._id ?? null).map((d) => ({ value: d._id, label: d._name }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function BindModal({
  menu,
  programs,
  onClose,
  onSaved,
}: {
  menu: MenuEntry;
  programs: { _id: string; _name: string }[];
  onClose(): void;
  onSaved(): Promise<void>;
}) {
  const { t } = useTranslation();
  const p = useProject()._id;
  const [form] = Form.useForm<{ programs: string[] }>();
  async function finish(v: { programs: string[] }) {
    try {
      await menusApi.bind(p, menu._id, v.programs ?? []);
      await onSaved();
      onClose();
    } catch (err) {
      showServerError(form, err, { programs: 'programs' });
    }
  }
  return (
    <Modal
      open
      title={t('menus.bindTitle', { name: menu._name })}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        name="menu-bind"
        onFinish={finish}
        initialValues={{ programs: menu._program }}
      >
        <Form.Item
          name="programs"
          label={t('menus.programs')}
          extra={programs.length ? null : t('menus.noProgramsYet')}
        >
          <Select
            mode="multiple"
            options={[
              ...programs.map((f) => ({ value: f._id, label: f._name })),
              // Bound programs that are no longer listed stay visible (and removable).
              ...menu._program
                .filter((id) => !programs.some((f) => f._id === id))
                .map((id) => ({ value: id, label: id })),
            ]}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
