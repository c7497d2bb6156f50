import { DeleteOutlined, EditOutlined, LinkOutlined, PlusOutlined, SafetyOutlined } from '@ant-design/icons';
import { App, Button, Form, Input, Modal, Select, Space, Spin, Switch, Table, Tag } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Role, type RoleOptions, rolesApi } from '../../api/system.ts';
import { useAdminContext } from '../../stores/admin-features.ts';
import { showServerError } from '../workbench/server-errors.ts';
import { useProject } from '../workbench/workbench-context.ts';
import { GrantsDrawer } from './GrantsDrawer.tsx';

const OPTION_KEYS: (keyof RoleOptions)[] = ['apply', 'enable', 'reg'];

/** /system/auth: roles — list, create, rename, options, grants and home, remove (builder spec §2). */
export default function AuthScreen() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const p = useProject()._id;
  const [roles, setRoles] = useState<Role[] | null>(null);
  const [editing, setEditing] = useState<Role | 'new' | null>(null);
  const [granting, setGranting] = useState<Role | null>(null);
  // What this system's feature switches leave on here (/system/features; the server agrees).
  const flags = useAdminContext(p)?.flags;
  const can = (flag: string) => flags?.[flag] !== false;
  const canGrant = can('auth.grant') || can('auth.home');

  const reload = useCallback(async () => {
    setRoles(await rolesApi.list(p));
  }, [p]);
  useEffect(() => {
    reload().catch(() => setRoles([]));
  }, [reload]);

  function remove(r: Role) {
    modal.confirm({
      title: t('sys.roleRemoveTitle', { name: r.name }),
      content: t('sys.roleRemoveBody', { n: r._user.length }),
      okText: t('common.remove'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        await rolesApi.remove(p, r._id);
        message.success(t('sys.removed'));
        await reload();
      },
    });
  }

  /** The link new users register through straight into a role whose reg option is on. */
  function copyRegLink(r: Role) {
    const url = `${window.location.origin}/login/register?project=${p}&role=${r._id}`;
    modal.info({
      title: t('sys.regLink'),
      content: <span data-testid="reg-link">{url}</span>,
      okText: t('common.ok'),
    });
    navigator.clipboard?.writeText(url).catch(() => {});
  }

  async function activatePublic() {
    await rolesApi.activatePublic(p);
    message.success(t('sys.publicOn'));
    await reload();
  }

  if (!roles) return <Spin className="center-pad" />;
  const hasPublic = roles.some((r) => r.type === 'public');
  return (
    <div className="system-pad" data-testid="auth-screen">
      <div className="wb-bar">
        <h2 className="wb-heading">{t('sys.auth')}</h2>
        <Space wrap>
          {hasPublic || !can('user.public') ? null : (
            <Button onClick={() => void activatePublic()} data-testid="public-on">
              {t('sys.publicActivate')}
            </Button>
          )}
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setEditing('new')}
            data-testid="new-role"
          >
            {t('sys.roleCreate')}
          </Button>
        </Space>
      </div>
      <Table<Role>
        rowKey="_id"
        size="middle"
        pagination={false}
        scroll={{ x: 'max-content' }}
        dataSource={roles}
        locale={{ emptyText: t('sys.noRoles') }}
        onRow={(r) => ({ 'data-testid': `role-row-${r.name}` }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          { title: t('sys.roleName'), dataIndex: 'name' },
          {
            title: t('sys.roleType'),
            render: (_, r) => <Tag>{t(`sys.roleTypes.${r.type}`)}</Tag>,
          },
          {
            title: t('sys.roleOptions'),
            render: (_, r) =>
              OPTION_KEYS.filter((k) => r.options[k]).map((k) => (
                <Tag key={k} color="blue">
                  {t(`sys.opt.${k}`)}
                </Tag>
              )),
          },
          ...(can('auth.member')
            ? [{ title: t('sys.roleMembers'), render: (_: unknown, r: Role) => r._user.length }]
            : []),
          {
            title: t('menus.actions'),
            render: (_, r) => (
              <Space size={0} wrap>
                {canGrant ? (
                  <Button
                    type="link"
                    size="small"
                    icon={<SafetyOutlined />}
                    onClick={() => setGranting(r)}
                    data-testid="role-grants"
                  >
                    {t('sys.grants')}
                  </Button>
                ) : null}
                {r.options.reg && r.type === 'common' ? (
                  <Button
                    type="text"
                    size="small"
                    icon={<LinkOutlined />}
                    title={t('sys.regLink')}
                    aria-label={t('sys.regLink')}
                    onClick={() => copyRegLink(r)}
                    data-testid="role-reg-link"
                  />
                ) : null}
                <Button
                  type="text"
                  size="small"
                  icon={<EditOutlined />}
                  onClick={() => setEditing(r)}
                  aria-label={t('common.edit')}
                  data-testid="role-edit"
                />
                <Button
                  type="text"
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  onClick={() => remove(r)}
                  aria-label={t('common.remove')}
                  data-testid="role-remove"
                />
              </Space>
            ),
          },
        ]}
      />
      {editing ? (
        <RoleModal
          role={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={async () => {
            message.success(t('sys.saved'));
            await reload();
          }}
        />
      ) : null}
      {granting ? (
        <GrantsDrawer
          role={granting}
          onClose={() => setGranting(null)}
          onSaved={async () => {
            message.success(t('sys.granted'));
            setGranting(null);
            await reload();
          }}
        />
      ) : null}
    </div>
  );
}

interface RoleValues {
  name: string;
  type: 'admin' | 'common';
  apply: boolean;
  enable: boolean;
  reg: boolean;
}

function RoleModal({
  role,
  onClose,
  onSaved,
}: {
  role: Role | null;
  onClose(): void;
  onSaved(): Promise<void>;
}) {
  const { t } = useTranslation();
  const p = useProject()._id;
  const [form] = Form.useForm<RoleValues>();
  const type = Form.useWatch('type', form) ?? role?.type ?? 'common';
  const [busy, setBusy] = useState(false);
  const isPublic = role?.type === 'public';

  async function finish(v: RoleValues) {
    setBusy(true);
    // Switching and registration open a role to anyone: common roles only (the server agrees).
    const options = {
      apply: v.apply,
      enable: v.type === 'common' && v.enable,
      reg: v.type === 'common' && v.reg,
    };
    try {
      if (role) {
        await rolesApi.update(p, role._id, {
          name: v.name.trim(),
          ...(isPublic ? {} : { type: v.type }),
          options,
        });
      } else await rolesApi.create(p, { name: v.name.trim(), type: v.type, options });
      await onSaved();
      onClose();
    } catch (err) {
      showServerError(form, err, { name: 'name', options: 'reg', type: 'type' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open
      title={role ? t('sys.roleEdit') : t('sys.roleCreate')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      destroyOnHidden
    >
      <Form<RoleValues>
        form={form}
        layout="vertical"
        name="role-form"
        onFinish={finish}
        initialValues={{
          name: role?.name ?? '',
          type: role?.type === 'admin' ? 'admin' : 'common',
          ...(role?.options ?? { apply: false, enable: false, reg: false }),
        }}
      >
        <Form.Item
          name="name"
          label={t('sys.roleName')}
          rules={[{ required: true, whitespace: true, message: t('sys.nameRequired') }]}
        >
          <Input maxLength={64} autoFocus />
        </Form.Item>
        {isPublic ? null : (
          <Form.Item name="type" label={t('sys.roleType')} extra={t('sys.roleTypeHint')}>
            <Select
              options={(['common', 'admin'] as const).map((k) => ({
                value: k,
                label: t(`sys.roleTypes.${k}`),
              }))}
            />
          </Form.Item>
        )}
        {OPTION_KEYS.map((k) => (
          <Form.Item
            key={k}
            name={k}
            label={t(`sys.opt.${k}`)}
            extra={t(`sys.optHint.${k}`)}
            valuePropName="checked"
          >
            <Switch disabled={k !== 'apply' && type === 'admin'} data-testid={`opt-${k}`} />
          </Form.Item>
        ))}
      </Form>
    </Modal>
  );
}
