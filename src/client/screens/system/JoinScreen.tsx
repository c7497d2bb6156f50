import { Button, Card, Form, Input, Result, Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { api } from '../../api/account.ts';
import { ApiError } from '../../api/api-error.ts';
import { roleHomePath } from '../../shell/role-home.ts';
import { refreshProjects } from '../../shell/use-app-project.ts';
import { useShell } from '../../stores/shell.ts';
import { useWorkbench } from '../../stores/workbench.ts';

/**
 * /join/{link} (an invitation's link) and /join (type its code): the signed-in user joins the
 * system, which becomes the current one, and its role home (or home) opens.
 */
export default function JoinScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { link } = useParams();
  const custom = useShell((s) => s.custom);
  const [failed, setFailed] = useState<string | null>(null);
  const started = useRef(false);

  async function join(by: { link: string } | { code: string }) {
    try {
      const { project } = await api.join(by);
      useWorkbench.getState().setProject(project);
      await refreshProjects();
      const path = await roleHomePath(project, custom).catch(() => null);
      navigate(path ?? '/', { replace: true });
    } catch (err) {
      setFailed(err instanceof ApiError ? `${err.code}: ${err.message}` : String(err));
    }
  }

  useEffect(() => {
    if (!link || started.current) return;
    started.current = true;
    void join({ link });
  });

  if (failed) {
    return (
      <Result
        status="warning"
        title={t('sys.joinFailed')}
        subTitle={failed}
        data-testid="join-failed"
        extra={<Button onClick={() => navigate('/', { replace: true })}>{t('shell.toHome')}</Button>}
      />
    );
  }
  if (link) return <Spin className="center-pad" tip={t('sys.joining')} />;
  return (
    <Card title={t('sys.joinTitle')} className="home-card" data-testid="join-code">
      <Form layout="vertical" onFinish={(v: { code: string }) => void join({ code: v.code.trim() })}>
        <Form.Item
          name="code"
          label={t('sys.inviteCode')}
          rules={[{ required: true, whitespace: true, message: t('common.required') }]}
        >
          <Input maxLength={16} />
        </Form.Item>
        <Button type="primary" htmlType="submit">
          {t('sys.join')}
        </Button>
      </Form>
    </Card>
  );
}
