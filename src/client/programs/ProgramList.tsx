/**
 * The project's programs grouped by module (as tables are): create in a module, open, rename, move
 * up/down within the module, move to another module, remove (confirmed).
 */
import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  DeleteOutlined,
  EditOutlined,
  MoreOutlined,
  ThunderboltOutlined,
} from '@ant-design/icons';
import { App, Button, Dropdown, Empty, Input, Select, Space, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Flow, triggerOps } from '../../shared/program/index.ts';
import type { Module } from '../api/workbench.ts';

export interface ProgramListProps {
  flows: Flow[];
  modules: Module[];
  current: string | null;
  onOpen: (id: string) => void;
  onCreate: (name: string, module: string | null) => Promise<void>;
  onRename: (f: Flow, name: string) => Promise<void>;
  onSort: (f: Flow, by: -1 | 1) => Promise<void>;
  onMove: (f: Flow, module: string | null) => Promise<void>;
  onRemove: (f: Flow) => Promise<void>;
}

/** Programs of one module (null: none), in their order. */
export function groupByModule(flows: Flow[], modules: Module[]): { module: Module | null; flows: Flow[] }[] {
  const known = new Set(modules.map((m) => m._id));
  const groups = modules.map((m) => ({
    module: m as Module | null,
    flows: flows.filter((f) => f._module === m._id),
  }));
  groups.push({ module: null, flows: flows.filter((f) => !f._module || !known.has(f._module)) });
  const order = (a: Flow, b: Flow) => a._sort - b._sort || a._id.localeCompare(b._id);
  return groups
    .map((g) => ({ ...g, flows: [...g.flows].sort(order) }))
    .filter((g) => g.module || g.flows.length > 0);
}

export function ProgramList(props: ProgramListProps) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const [name, setName] = useState('');
  const [module, setModule] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<{ id: string; name: string } | null>(null);
  const create = async () => {
    if (!name.trim()) return;
    await props.onCreate(name.trim(), module);
    setName('');
  };
  const groups = groupByModule(props.flows, props.modules);
  const moduleName = (id: string | null) =>
    props.modules.find((m) => m._id === id)?._name ?? t('progEditor.noModule');
  return (
    <div className="prog-list-pane" data-testid="program-list">
      <Space direction="vertical" style={{ width: '100%' }} size={6}>
        <Input
          placeholder={t('program.name')}
          value={name}
          maxLength={128}
          onChange={(e) => setName(e.target.value)}
          onPressEnter={() => void create()}
        />
        <Space.Compact style={{ width: '100%' }}>
          <Select
            style={{ flex: 1, minWidth: 0 }}
            value={module ?? ''}
            aria-label={t('progEditor.module')}
            options={[
              { value: '', label: t('progEditor.noModule') },
              ...props.modules.map((m) => ({ value: m._id, label: m._name })),
            ]}
            onChange={(v: string) => setModule(v || null)}
          />
          <Button type="primary" onClick={() => void create()}>
            {t('program.newProgram')}
          </Button>
        </Space.Compact>
      </Space>
      {props.flows.length === 0 ? (
        <Empty description={t('program.empty')} style={{ marginTop: 16 }} />
      ) : (
        groups.map((g) => (
          <div key={g.module?._id ?? 'none'} className="prog-module" data-module={g.module?._name ?? ''}>
            <Typography.Text type="secondary" className="prog-module-title">
              {g.module?._name ?? t('progEditor.noModule')}
            </Typography.Text>
            {g.flows.length === 0 ? (
              <Typography.Text type="secondary" className="prog-empty">
                {t('progEditor.noProgramsHere')}
              </Typography.Text>
            ) : null}
            {g.flows.map((f, i) => (
              <div
                key={f._id}
                className={`prog-flow${props.current === f._id ? ' prog-flow-current' : ''}`}
                data-testid={`program-${f._name}`}
              >
                {renaming?.id === f._id ? (
                  <Input
                    size="small"
                    autoFocus
                    value={renaming.name}
                    aria-label={t('progEditor.rename')}
                    onChange={(e) => setRenaming({ id: f._id, name: e.target.value })}
                    onPressEnter={() => {
                      if (renaming.name.trim()) void props.onRename(f, renaming.name.trim());
                      setRenaming(null);
                    }}
                    onBlur={() => setRenaming(null)}
                  />
                ) : (
                  <button type="button" className="prog-flow-open" onClick={() => props.onOpen(f._id)}>
                    <span className="prog-flow-name">{f._name}</span>
                    {triggerOps(f._option?.trigger).length ? (
                      <Tooltip title={t('progEditor.recordTrigger')}>
                        <ThunderboltOutlined className="prog-flow-trigger" data-testid="flow-trigger" />
                      </Tooltip>
                    ) : null}
                    {f._version ? (
                      <Tag color="green">v{f._version}</Tag>
                    ) : (
                      <Tag>{t('program.notReleased')}</Tag>
                    )}
                  </button>
                )}
                <Dropdown
                  trigger={['click']}
                  menu={{
                    items: [
                      { key: 'rename', icon: <EditOutlined />, label: t('progEditor.rename') },
                      { key: 'up', icon: <ArrowUpOutlined />, label: t('program.moveUp'), disabled: i === 0 },
                      {
                        key: 'down',
                        icon: <ArrowDownOutlined />,
                        label: t('program.moveDown'),
                        disabled: i === g.flows.length - 1,
                      },
                      {
                        key: 'move',
                        label: t('progEditor.moveTo'),
                        children: [null, ...props.modules.map((m) => m._id)]
                          .filter((m) => m !== (g.module?._id ?? null))
                          .map((m) => ({ key: `move:${m ?? ''}`, label: moduleName(m) })),
                      },
                      { key: 'remove', icon: <DeleteOutlined />, label: t('program.remove'), danger: true },
                    ],
                    onClick: ({ key }) => {
                      if (key === 'rename') setRenaming({ id: f._id, name: f._name });
                      else if (key === 'up') void props.onSort(f, -1);
                      else if (key === 'down') void props.onSort(f, 1);
                      else if (key.startsWith('move:')) void props.onMove(f, key.slice(5) || null);
                      else if (key === 'remove')
                        modal.confirm({
                          title: t('program.removeConfirm'),
                          okText: t('program.remove'),
                          okButtonProps: { danger: true },
                          cancelText: t('program.cancel'),
                          onOk: () => props.onRemove(f),
                        });
                    },
                  }}
                >
                  <Button
                    size="small"
                    type="text"
                    icon={<MoreOutlined />}
                    aria-label={`${t('progEditor.actions')} ${f._name}`}
                  />
                </Dropdown>
              </div>
            ))}
          </div>
        ))
      )}
    </div>
  );
}
