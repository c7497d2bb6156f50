import { CopyOutlined } from '@ant-design/icons';
import { App, Button, Form, InputNumber, Modal, Select, Space, Switch, Table, Tag, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Invitation, membersApi, type Role } from '../../api/system.ts';
import { useProject } from '../workbench/workbench-context.ts';

/** The join link of an invitation, as a colleague opens it (signed in, they join at once). */
export const inviteUrl = (link: string) => `${window.location.origin}/join/${link}`;

/** Invitations by code or link with a validity period: create, list, open/close (builder spec §2). */
export function InvitePanel({ roles, onClose }: { roles: Role[]; onClose(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const p = useProject()._id;
  const [list, setList] = useState<Invitation[] | null>(null);
  const [role, setRole] = useState<string | null>(roles.find((r) => r.type === 'common')?._id ?? null);
  const [days, setDays] = useState(7);
  const [busy, setBusy] = useState(false);

  const reload = useCallback(async () => setList(await membersApi.invites(p)), [p]);
  useEffect(() => {
    reload().catch(() => setList([]));
  }, [reload]);

  async function create() {
    setBusy(true);
    try {
      await membersApi.invite(p, role, days);
      message.success(t('sys.inviteCreated'));
      await reload();
    } catch {
      // shown by the wrapper
    } finally {
      setBusy(false);
    }
  }

  async function toggle(i: Invitation, open: boolean) {
    await membersApi.setInvite(p, i._id, open);
    await reload();
  }

  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      message.success(t('sys.copied'));
    } catch {
      // Without clipboard access the text stays selectable on screen.
    }
  };

  return (
    <Modal open title={t('sys.invite')} onCancel={onClose} footer={null} width={720} destroyOnHidden>
      <Form layout="inline" className="invite-form">
        <Form.Item label={t('sys.memberRole')}>
          <Select
            style={{ minWidth: 140 }}
            value={role ?? undefined}
            onChange={setRole}
            options={roles.map((r) => ({ value: r._id, label: r.name }))}
            data-testid="invite-role"
          />
        </Form.Item>
        <Form.Item label={t('sys.validDays')}>
          <InputNumber min={1} max={365} value={days} onChange={(v) => setDays(v ?? 7)} />
        </Form.Item>
        <Button type="primary" loading={busy} onClick={() => void create()} data-testid="invite-create">
          {t('sys.inviteCreate')}
        </Button>
      </Form>
      <Table<Invitation>
        rowKey="_id"
        size="small"
        loading={!list}
        scroll={{ x: 'max-content' }}
        dataSource={list ?? []}
        pagination={{ pageSize: 5, hideOnSinglePage: true }}
        locale={{ emptyText: t('sys.noInvites') }}
        columns={[
          {
            title: t('sys.inviteCode'),
            render: (_, i) => (
              <Typography.Text code data-testid="invite-code">
                {i.code}
              </Typography.Text>
            ),
          },
          {
            title: t('sys.inviteLink'),
            render: (_, i) => (
              <Space size={4}>
                <Typography.Text
                  className="invite-link"
                  ellipsis
                  style={{ maxWidth: 220 }}
                  data-testid="invite-link"
                >
                  {inviteUrl(i.link)}
                </Typography.Text>
                <Button
                  type="text"
                  size="small"
                  icon={<CopyOutlined />}
                  aria-label={t('sys.copy')}
                  onClick={() => void copy(inviteUrl(i.link))}
                />
              </Space>
            ),
          },
          { title: t('sys.memberRole'), render: (_, i) => roles.find((r) => r._id === i.role)?.name ?? '' },
          { title: t('sys.validUntil'), render: (_, i) => new Date(i.expiresAt).toLocaleDateString() },
          {
            title: t('sys.status'),
            render: (_, i) => (
              <Space>
                <Switch
                  size="small"
                  checked={i.status === 'open'}
                  onChange={(v) => void toggle(i, v)}
                  aria-label={t('sys.inviteOpen')}
                />
                {i.valid ? <Tag color="green">{t('sys.valid')}</Tag> : <Tag>{t('sys.invalid')}</Tag>}
              </Space>
            ),
          },
        ]}
      />
    </Modal>
  );
}
