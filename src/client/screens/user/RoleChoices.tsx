import { App, Button, Card, List, Space, Tag } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/account.ts';
import { type Role, roleJoinApi } from '../../api/system.ts';

type OpenRole = Pick<Role, '_id' | 'name' | 'type' | 'options'>;

/**
 * The current system's roles open to the user (role options): switch to an `enable` role at once,
 * or apply for an `apply` role, which a manager approves. Shown only when there are any.
 */
export function RoleChoices({ project }: { project: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [state, setState] = useState<{
    roles: OpenRole[];
    pending: string | null;
    mine: string | null;
  } | null>(null);

  const reload = useCallback(async () => {
    const [open, me] = await Promise.all([roleJoinApi.open(project), api.userIn(project)]);
    setState({ roles: open.roles, pending: open.pending, mine: me.role?._id ?? null });
  }, [project]);
  useEffect(() => {
    reload().catch(() => setState(null));
  }, [reload]);

  if (!state || state.roles.length === 0) return null;
  const act = async (r: OpenRole) => {
    try {
      if (r.options.enable && r.type === 'common') {
        await roleJoinApi.switchTo(project, r._id);
        message.success(t('sys.roleChanged'));
      } else {
        await roleJoinApi.apply(project, r._id);
        message.success(t('sys.appliedOk'));
      }
      await reload();
    } catch {
      // shown by the wrapper
    }
  };
  return (
    <Card title={t('sys.myRoles')} className="home-card" data-testid="role-choices">
      <List
        dataSource={state.roles}
        renderItem={(r) => (
          <List.Item
            key={r._id}
            extra={
              r._id === state.mine ? (
                <Tag color="blue">{t('user.inUse')}</Tag>
              ) : r._id === state.pending ? (
                <Tag>{t('sys.pending')}</Tag>
              ) : (
                <Button size="small" onClick={() => void act(r)} data-testid={`role-choice-${r.name}`}>
                  {r.options.enable && r.type === 'common' ? t('user.switchTo') : t('sys.applyFor')}
                </Button>
              )
            }
          >
            <Space>{r.name}</Space>
          </List.Item>
        )}
      />
    </Card>
  );
}
