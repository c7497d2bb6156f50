import {
  DownOutlined,
  EditOutlined,
  FolderOutlined,
  MoreOutlined,
  PlusOutlined,
  TableOutlined,
  UpOutlined,
} from '@ant-design/icons';
import { App, Button, Dropdown, Empty, Space, Spin } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet, useNavigate, useParams } from 'react-router';
import { type Entity, type Module, wb } from '../../api/workbench.ts';
import { confirmRemoval } from './confirm-removal.ts';
import type { DataModel } from './data-context.ts';
import { EntityModal } from './EntityModal.tsx';
import { NameModal } from './NameModal.tsx';
import { useProject } from './workbench-context.ts';

type Dialog =
  | { kind: 'module'; module?: Module }
  | { kind: 'entity'; entity?: Entity; module?: string | null }
  | null;

/** /dev/data: modules grouping tables on the left, the chosen table on the right. */
export default function DataLayout() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const project = useProject();
  const p = project._id;
  const navigate = useNavigate();
  const { entity: current } = useParams();
  const [modules, setModules] = useState<Module[] | null>(null);
  const [entities, setEntities] = useState<Entity[]>([]);
  const [dialog, setDialog] = useState<Dialog>(null);

  const reload = useCallback(async () => {
    const [m, e] = await Promise.all([wb.modules(p), wb.entities(p)]);
    setModules(m);
    setEntities(e);
  }, [p]);
  useEffect(() => {
    reload().catch(() => setModules([]));
  }, [reload]);

  if (!modules) return <Spin className="center-pad" />;

  const labels = { ok: t('common.remove'), cancel: t('common.cancel') };
  async function moveModule(i: number, by: -1 | 1) {
    const list = [...(modules ?? [])];
    const other = list[i + by];
    const m = list[i];
    if (!m || !other) return;
    list[i] = other;
    list[i + by] = m;
    // Rewrite the order of every module: stored sorts may tie.
    await Promise.all(list.map((x, sort) => (x._sort === sort ? null : wb.updateModule(p, x._id, { sort }))));
    await reload();
  }
  function removeModule(m: Module) {
    modal.confirm({
      title: t('module.removeConfirm', { name: m._name }),
      okText: labels.ok,
      cancelText: labels.cancel,
      okButtonProps: { danger: true },
      onOk: async () => {
        await wb.removeModule(p, m._id);
        await reload();
      },
    });
  }
  async function removeEntity(e: Entity) {
    const done = await confirmRemoval(modal, t('entity.removeTitle', { name: e._name }), labels, (confirm) =>
      wb.removeEntity(p, e._id, confirm),
    );
    if (!done) return;
    await reload();
    if (current === e._id || current === e._code) navigate('/dev/data');
  }

  const groups: { module: Module | null; list: Entity[] }[] = [
    ...modules.map((m) => ({ module: m, list: entities.filter((e) => e._module === m._id) })),
    { module: null, list: entities.filter((e) => !e._module || !modules.some((m) => m._id === e._module)) },
  ];

  const model: DataModel = { modules, entities, reload };
  return (
    <div className="wb-data">
      <aside className="wb-tables" data-testid="table-list">
        <div className="wb-tables-head">
          <strong>{t('module.title')}</strong>
          <Space size={4}>
            <Button
              size="small"
              icon={<FolderOutlined />}
              onClick={() => setDialog({ kind: 'module' })}
              data-testid="new-module"
            >
              {t('module.create')}
            </Button>
            <Button
              size="small"
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setDialog({ kind: 'entity' })}
              data-testid="new-table"
            >
              {t('entity.create')}
            </Button>
          </Space>
        </div>
        {entities.length === 0 && modules.length === 0 ? <Empty description={t('entity.none')} /> : null}
        {groups.map(({ module: m, list }, gi) =>
          m === null && list.length === 0 ? null : (
            <section key={m?._id ?? 'none'} className="wb-module" data-testid="module">
              <div className="wb-module-head">
                <span className="wb-module-name">
                  <FolderOutlined /> {m ? m._name : t('module.ungrouped')}
                </span>
                {m ? (
                  <Dropdown
                    trigger={['click']}
                    menu={{
                      items: [
                        { key: 'add', icon: <PlusOutlined />, label: t('entity.create') },
                        { key: 'rename', icon: <EditOutlined />, label: t('module.rename') },
                        { key: 'up', icon: <UpOutlined />, label: t('module.up'), disabled: gi === 0 },
                        {
                          key: 'down',
                          icon: <DownOutlined />,
                          label: t('module.down'),
                          disabled: gi === modules.length - 1,
                        },
                        { key: 'remove', danger: true, label: t('module.remove') },
                      ],
                      onClick: ({ key }) => {
                        if (key === 'add') setDialog({ kind: 'entity', module: m._id });
                        else if (key === 'rename') setDialog({ kind: 'module', module: m });
                        else if (key === 'up') void moveModule(gi, -1);
                        else if (key === 'down') void moveModule(gi, 1);
                        else removeModule(m);
                      },
                    }}
                  >
                    <Button
                      type="text"
                      size="small"
                      icon={<MoreOutlined />}
                      aria-label={t('module.actions')}
                    />
                  </Dropdown>
                ) : null}
              </div>
              {list.map((e) => (
                <div key={e._id} className="wb-table-item">
                  <NavLink to={`/dev/data/${e._id}`} className="wb-table-link" data-testid="table-link">
                    <TableOutlined /> <span>{e._name}</span> <code>{e._code}</code>
                  </NavLink>
                  <Dropdown
                    trigger={['click']}
                    menu={{
                      items: [
                        { key: 'edit', icon: <EditOutlined />, label: t('entity.edit') },
                        { key: 'remove', danger: true, label: t('entity.remove') },
                      ],
                      onClick: ({ key }) =>
                        key === 'edit' ? setDialog({ kind: 'entity', entity: e }) : void removeEntity(e),
                    }}
                  >
                    <Button
                      type="text"
                      size="small"
                      icon={<MoreOutlined />}
                      aria-label={t('entity.actions')}
                    />
                  </Dropdown>
                </div>
              ))}
            </section>
          ),
        )}
      </aside>
      <section className="wb-main">
        <Outlet context={model} />
      </section>
      {dialog?.kind === 'module' ? (
        <NameModal
          title={dialog.module ? t('module.rename') : t('module.create')}
          label={t('module.name')}
          initial={dialog.module?._name}
          onClose={() => setDialog(null)}
          onSubmit={async (name) => {
            if (dialog.module) await wb.updateModule(p, dialog.module._id, { name });
            else await wb.createModule(p, name, modules.length);
            await reload();
          }}
        />
      ) : null}
      {dialog?.kind === 'entity' ? (
        <EntityModal
          entity={dialog.entity}
          modules={modules}
          defaultModule={dialog.module}
          onClose={() => setDialog(null)}
          onSubmit={async (v) => {
            const e = dialog.entity;
            if (e) {
              await wb.updateEntity(p, e._id, {
                name: v.name,
                module: v.module,
                ...(v.code && v.code !== e._code ? { code: v.code } : {}),
              });
              await reload();
            } else {
              const created = await wb.createEntity(p, {
                name: v.name,
                module: v.module,
                ...(v.code ? { code: v.code } : {}),
              });
              await reload();
              navigate(`/dev/data/${created._id}`);
            }
          }}
        />
      ) : null}
    </div>
  );
}
