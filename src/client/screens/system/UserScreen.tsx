import { PlusOutlined, SearchOutlined, UserAddOutlined } from '@ant-design/icons';
import { App, Button, Dropdown, Input, Select, Space, Spin, Table, Tag } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  type Member,
  type MemberList,
  membersApi,
  type Role,
  type RoleApplication,
  rolesApi,
} from '../../api/system.ts';
import { useAdminContext } from '../../stores/admin-features.ts';
import { useProject } from '../workbench/workbench-context.ts';
import { InvitePanel } from './InvitePanel.tsx';
import { BindMemberModal, CreateMemberModal, EditMemberModal } from './MemberModals.tsx';

const PAGE_SIZE = 20;

type Dialog = 'create' | 'bind' | 'invite' | { edit: Member } | null;

/** /system/user: members with the quota, search and paging; create, bind, invite, role, ban, kick, remove. */
export default function UserScreen() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const navigate = useNavigate();
  const p = useProject()._id;
  const [data, setData] = useState<MemberList | null>(null);
  const [roles, setRoles] = useState<Role[]>([]);
  const [applications, setApplications] = useState<RoleApplication[]>([]);
  const [search, setSearch] = useState('');
  const [dialog, setDialog] = useState<Dialog>(null);
  const [busy, setBusy] = useState<string | null>(null);
  // The member actions this system's feature switches leave on (/system/features).
  const flags = useAdminContext(p)?.flags;
  const can = (part: string) => flags?.[`user.${part}`] !== false;
  // Applications to join a role are role administration's: listed with auth.member, decided with auth.member_handle.
  const canApplications = flags?.['auth.member'] === true;
  const canDecide = flags?.['auth.member_handle'] !== false;

  // The search and the page are the server's (SQL): typing waits 300 ms, then asks for page 1.
  const [query, setQuery] = useState({ text: '', page: 1 });
  const [loading, setLoading] = useState(false);
  useEffect(() => {
    const timer = setTimeout(
      () => setQuery((q) => (q.text === search.trim() ? q : { text: search.trim(), page: 1 })),
      300,
    );
    return () => clearTimeout(timer);
  }, [search]);

  const reloadMembers = useCallback(async () => {
    setLoading(true);
    try {
      setData(await membersApi.page(p, { text: query.text, page: query.page, pageSize: PAGE_SIZE }));
    } finally {
      setLoading(false);
    }
  }, [p, query]);
  const reloadRest = useCallback(async () => {
    const [r, apps] = await Promise.all([
      rolesApi.list(p),
      canApplications ? membersApi.applications(p) : Promise.resolve([] as RoleApplication[]),
    ]);
    setRoles(r.filter((x) => x.type !== 'public'));
    setApplications(apps);
  }, [p, canApplications]);
  const reload = useCallback(async () => {
    await Promise.all([reloadMembers(), reloadRest()]);
  }, [reloadMembers, reloadRest]);
  useEffect(() => {
    reloadMembers().catch(() => setData({ list: [], size: 0, total: 0, quota: null }));
  }, [reloadMembers]);
  useEffect(() => {
    reloadRest().catch(() => undefined);
  }, [reloadRest]);

  const shown = data?.list ?? [];
  const full = data?.quota !== null && data !== null && data.size >= (data.quota ?? Infinity);

  async function act(m: Member, what: 'ban' | 'unban' | 'kick', done: string) {
    setBusy(m._id);
    try {
      await membersApi[what](p, m._id);
      message.success(t(done));
      await reload();
    } finally {
      setBusy(null);
    }
  }

  async function changeRole(m: Member, role: string) {
    setBusy(m._id);
    try {
      await membersApi.update(p, m._id, { role });
      message.success(t('sys.roleChanged'));
      await reload();
    } catch {
      // shown by the wrapper
    } finally {
      setBusy(null);
    }
  }

  function remove(m: Member) {
    modal.confirm({
      title: t('sys.memberRemoveTitle', { name: m.name }),
      content: t('sys.memberRemoveBody'),
      okText: t('common.remove'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        await membersApi.remove(p, m._id);
        message.success(t('sys.memberRemoved'));
        await reload();
      },
    });
  }

  async function decide(a: RoleApplication, approve: boolean) {
    await membersApi.decide(p, a._id, approve);
    message.success(t(approve ? 'sys.approved' : 'sys.rejected'));
    await reload();
  }

  if (!data) return <Spin className="center-pad" />;
  const roleName = (id: string | null) => roles.find((r) => r._id === id)?.name ?? '';
  return (
    <div className="system-pad" data-testid="user-screen">
      <div className="wb-bar">
        <h2 className="wb-heading">
          {t('sys.user')}{' '}
          <Tag color={full ? 'red' : 'default'} data-testid="member-quota">
            {data.quota === null ? data.size : `${data.size} / ${data.quota}`}
          </Tag>
        </h2>
        <Space wrap>
          <Button icon={<UserAddOutlined />} onClick={() => setDialog('invite')} data-testid="invite-open">
            {t('sys.invite')}
          </Button>
          {can('create') || can('bind') ? (
            <Dropdown
              menu={{
                items: [
                  can('create')
                    ? ({ key: 'create', label: t('sys.createSub'), 'data-testid': 'member-create' } as never)
                    : null,
                  can('bind')
                    ? ({ key: 'bind', label: t('sys.bindUser'), 'data-testid': 'member-bind' } as never)
                    : null,
                ].filter(Boolean),
                onClick: ({ key }) => setDialog(key as 'create' | 'bind'),
              }}
            >
              <Button type="primary" icon={<PlusOutlined />} data-testid="member-add">
                {t('sys.addMember')}
              </Button>
            </Dropdown>
          ) : null}
        </Space>
      </div>
      {full ? (
        <div className="system-quota" data-testid="quota-full">
          {t('sys.quotaFull')}{' '}
          <Button type="link" size="small" onClick={() => navigate('/upgrade')}>
            {t('sys.upgrade')}
          </Button>
        </div>
      ) : null}
      {applications.length ? (
        <Table<RoleApplication>
          className="system-applications"
          rowKey="_id"
          size="small"
          pagination={false}
          title={() => t('sys.applications')}
          dataSource={applications}
          columns={[
            { title: t('sys.memberName'), render: (_, a) => a.nickname || a.account },
            { title: t('sys.memberRole'), dataIndex: 'roleName' },
            { title: t('sys.note'), dataIndex: 'note' },
            {
              title: t('menus.actions'),
              render: (_, a) =>
                canDecide ? (
                  <Space size={0}>
                    <Button type="link" size="small" onClick={() => void decide(a, true)}>
                      {t('sys.approve')}
                    </Button>
                    <Button type="link" size="small" danger onClick={() => void decide(a, false)}>
                      {t('sys.reject')}
                    </Button>
                  </Space>
                ) : null,
            },
          ]}
        />
      ) : null}
      <Input
        allowClear
        prefix={<SearchOutlined />}
        placeholder={t('sys.memberSearch')}
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        className="system-search"
        data-testid="member-search"
      />
      <Table<Member>
        rowKey="_id"
        size="middle"
        scroll={{ x: 'max-content' }}
        dataSource={shown}
        loading={loading}
        pagination={{
          current: query.page,
          pageSize: PAGE_SIZE,
          total: data.total ?? shown.length,
          hideOnSinglePage: true,
          showSizeChanger: false,
          showTotal: (total) => t('sys.memberTotal', { total }),
          onChange: (page) => setQuery((q) => ({ ...q, page })),
        }}
        locale={{ emptyText: t('sys.noMembers') }}
        onRow={(m) =>
          ({ 'data-testid': `member-row-${m.account ?? m._id}` }) as React.HTMLAttributes<HTMLElement>
        }
        columns={[
          {
            title: t('sys.memberName'),
            render: (_, m) => (
              <span>
                {m.name} {m.sub ? <Tag>{t('sys.sub')}</Tag> : null}
              </span>
            ),
          },
          { title: t('sys.account'), render: (_, m) => m.account ?? m.phone ?? '' },
          {
            title: t('sys.memberRole'),
            render: (_, m) =>
              m.roleType === 'owner' ? (
                <Tag color="gold">{t('role.owner')}</Tag>
              ) : !can('change') ? (
                <span data-testid="member-role-text">{roleName(m.role) || t('sys.noRole')}</span>
              ) : (
                <Select
                  size="small"
                  style={{ minWidth: 120 }}
                  value={m.role ?? undefined}
                  placeholder={t('sys.noRole')}
                  disabled={busy === m._id}
                  onChange={(v: string) => void changeRole(m, v)}
                  options={roles.map((r) => ({ value: r._id, label: r.name }))}
                  aria-label={t('sys.memberRole')}
                  data-testid="member-role"
                  labelRender={() => roleName(m.role) || t('sys.noRole')}
                />
              ),
          },
          {
            title: t('sys.status'),
            render: (_, m) =>
              m.status === 'active' ? (
                <Tag color="green">{t('sys.active')}</Tag>
              ) : (
                <Tag color="red" data-testid="member-banned">
                  {t('sys.banned')}
                </Tag>
              ),
          },
          {
            title: t('menus.actions'),
            render: (_, m) =>
              m.roleType === 'owner' ? null : (
                <Space size={0} wrap>
                  {m.status === 'active' ? (
                    <Button
                      type="link"
                      size="small"
                      danger
                      onClick={() => void act(m, 'ban', 'sys.bannedOk')}
                      data-testid="member-ban"
                    >
                      {t('sys.ban')}
                    </Button>
                  ) : (
                    <Button
                      type="link"
                      size="small"
                      onClick={() => void act(m, 'unban', 'sys.unbannedOk')}
                      data-testid="member-unban"
                    >
                      {t('sys.unban')}
                    </Button>
                  )}
                  {can('kick') ? (
                    <Button
                      type="link"
                      size="small"
                      onClick={() => void act(m, 'kick', 'sys.kickedOk')}
                      data-testid="member-kick"
                    >
                      {t('sys.kick')}
                    </Button>
                  ) : null}
                  {m.sub && can('edit') ? (
                    <Button
                      type="link"
                      size="small"
                      onClick={() => setDialog({ edit: m })}
                      data-testid="member-edit"
                    >
                      {t('common.edit')}
                    </Button>
                  ) : null}
                  <Button
                    type="link"
                    size="small"
                    danger
                    onClick={() => remove(m)}
                    data-testid="member-remove"
                  >
                    {t('common.remove')}
                  </Button>
                </Space>
              ),
          },
        ]}
      />
      {dialog === 'create' ? (
        <CreateMemberModal roles={roles} onClose={() => setDialog(null)} onDone={reload} />
      ) : null}
      {dialog === 'bind' ? (
        <BindMemberModal roles={roles} onClose={() => setDialog(null)} onDone={reload} />
      ) : null}
      {dialog === 'invite' ? <InvitePanel roles={roles} onClose={() => setDialog(null)} /> : null}
      {dialog && typeof dialog === 'object' ? (
        <EditMemberModal member={dialog.edit} onClose={() => setDialog(null)} onDone={reload} />
      ) : null}
    </div>
  );
}
