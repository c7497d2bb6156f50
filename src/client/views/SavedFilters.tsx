/**
 * Saved filters of a table: apply one, save the current filter as private / public / project, and
 * manage them (rename, copy, change type, remove). The server checks every one against the fields
 * the user sees and who may change what; its refusals show as the usual coded notices.
 */
import { DeleteOutlined, SaveOutlined, StarOutlined } from '@ant-design/icons';
import { Button, Dropdown, Form, Input, List, Modal, Popconfirm, Radio, Select, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type FilterSpec, type SavedFilter, type ShareType, viewsApi } from '../api/views.ts';
import { canBuild } from '../screens/workbench/project-select.ts';
import { useSession } from '../stores/session.ts';
import { useShell } from '../stores/shell.ts';

const TYPES: ShareType[] = ['private', 'public', 'project'];

/**
 * What the signed-in user may do with saved filters, as the server decides it (access/decide.ts,
 * `share`): project filters are written by builders; a public one is changed by its creator or a
 * builder; private ones are the user's own. The form offers only what would be accepted.
 */
export function filterRights(builder: boolean, userId: string | null) {
  return {
    types: builder ? TYPES : TYPES.filter((ty) => ty !== 'project'),
    mayChange: (f: Pick<SavedFilter, 'type' | 'createdBy'>) =>
      builder || f.type === 'private' || (f.type === 'public' && f.createdBy === userId),
  };
}

export function SavedFilters(props: {
  project: string;
  entity: string;
  list: SavedFilter[];
  current: FilterSpec;
  active: string | null;
  onApply(f: SavedFilter): void;
  onChanged(): void;
}) {
  const { t } = useTranslation();
  const [saving, setSaving] = useState(false);
  const [managing, setManaging] = useState(false);
  const [form] = Form.useForm<{ name: string; type: ShareType }>();
  const { project, entity, list } = props;
  const builder = useShell((s) => canBuild(s.projects?.find((p) => p._id === project)));
  const userId = useSession((s) => s.user?._id ?? null);
  const rights = filterRights(builder, userId);
  const typeOption = (ty: ShareType) => ({ value: ty, label: t(`views.${ty}`) });
  const typeOptions = rights.types.map(typeOption);

  async function save(v: { name: string; type: ShareType }) {
    await viewsApi.saveFilter(project, entity, { name: v.name, type: v.type, filter: props.current });
    setSaving(false);
    form.resetFields();
    props.onChanged();
  }
  async function change(f: SavedFilter, patch: { name?: string; type?: ShareType }) {
    await viewsApi
      .saveFilter(project, entity, {
        id: f.id,
        name: patch.name ?? f.name,
        type: patch.type ?? f.type,
        filter: f.filter,
        ...(patch.type && patch.type !== f.type ? { from: f.type } : {}),
      })
      .catch(() => undefined);
    props.onChanged();
  }

  return (
    <>
      <Dropdown
        trigger={['click']}
        menu={{
          items: list.length
            ? list.map((f) => ({
                key: `${f.type}:${f.id}`,
                label: (
                  <span data-testid="saved-filter-item">
                    {f.name} <Tag>{t(`views.${f.type}`)}</Tag>
                    {f.stale?.length ? (
                      <Tag color="warning" data-testid="saved-filter-stale">
                        {t('views.staleTag')}
                      </Tag>
                    ) : null}
                  </span>
                ),
              }))
            : [{ key: '', label: t('views.noSaved'), disabled: true }],
          selectedKeys: props.active ? [props.active] : [],
          onClick: ({ key }) => {
            const f = list.find((x) => `${x.type}:${x.id}` === key);
            if (f) props.onApply(f);
          },
        }}
      >
        <Button icon={<StarOutlined />} data-testid="saved-filters">
          {t('views.saved_filters')}
        </Button>
      </Dropdown>
      <Button
        icon={<SaveOutlined />}
        onClick={() => setSaving(true)}
        disabled={props.current.conditions.length === 0}
        data-testid="save-filter"
      >
        {t('views.saveFilter')}
      </Button>
      {list.length ? (
        <Button onClick={() => setManaging(true)} data-testid="manage-filters">
          {t('views.manageFilters')}
        </Button>
      ) : null}
      <Modal
        open={saving}
        title={t('views.saveFilter')}
        onCancel={() => setSaving(false)}
        onOk={() => form.submit()}
        okButtonProps={{ type: 'primary', 'data-testid': 'save-filter-ok' } as { type: 'primary' }}
        destroyOnHidden
      >
        <Form
          form={form}
          layout="vertical"
          onFinish={(v) => void save(v).catch(() => undefined)}
          initialValues={{ type: 'private' }}
        >
          <Form.Item name="name" label={t('views.filterName')} rules={[{ required: true, max: 100 }]}>
            <Input data-testid="save-filter-name" />
          </Form.Item>
          <Form.Item name="type" label={t('views.filterType')}>
            <Radio.Group data-testid="save-filter-type" options={typeOptions} />
          </Form.Item>
        </Form>
      </Modal>
      <Modal
        open={managing}
        title={t('views.manageFilters')}
        footer={null}
        onCancel={() => setManaging(false)}
        width={640}
      >
        <List
          dataSource={list}
          // Keyed by the filter, not its place: a rename box keeps what it was given first, so after a
          // copy or a removal shifted the list it showed (and renamed) another filter.
          rowKey={(f) => `${f.type}:${f.id}`}
          renderItem={(f) => {
            const mine = rights.mayChange(f);
            return (
              <List.Item
                data-testid="manage-filter-row"
                actions={[
                  <Select
                    key="type"
                    size="small"
                    aria-label={t('views.changeType')}
                    value={f.type}
                    style={{ width: 150 }}
                    disabled={!mine}
                    options={mine ? typeOptions : TYPES.map(typeOption)}
                    onChange={(type) => void change(f, { type })}
                  />,
                  <Button
                    key="copy"
                    size="small"
                    onClick={() =>
                      void viewsApi
                        .saveFilter(project, entity, {
                          name: t('views.copyOf', { name: f.name }).slice(0, 100),
                          type: 'private',
                          filter: f.filter,
                        })
                        .then(props.onChanged, () => undefined)
                    }
                  >
                    {t('views.copyFilter')}
                  </Button>,
                  <Popconfirm
                    key="remove"
                    title={t('views.removeFilterConfirm', { name: f.name })}
                    disabled={!mine}
                    onConfirm={() =>
                      viewsApi
                        .removeFilter(project, entity, f.id, f.type)
                        .then(props.onChanged, () => undefined)
                    }
                  >
                    <Button
                      size="small"
                      danger
                      disabled={!mine}
                      icon={<DeleteOutlined />}
                      aria-label={t('views.remove')}
                    />
                  </Popconfirm>,
                ]}
              >
                <Space>
                  <Input
                    size="small"
                    disabled={!mine}
                    defaultValue={f.name}
                    aria-label={t('views.rename')}
                    maxLength={100}
                    onBlur={(e) => {
                      const name = e.target.value.trim();
                      if (name && name !== f.name) void change(f, { name });
                    }}
                  />
                </Space>
              </List.Item>
            );
          }}
        />
      </Modal>
    </>
  );
}
