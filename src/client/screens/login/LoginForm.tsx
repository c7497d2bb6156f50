import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { checkRequired } from '../../../shared/validation.ts';
import { signIn } from '../../shell/session.ts';
import { shared } from './rules.ts';

/** Sign in with account or phone and password. */
export default function LoginForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);

  async function submit(values: { user: string; pwd: string }) {
    setBusy(true);
    try {
      await signIn(values.user, values.pwd);
      navigate('/', { replace: true });
    } catch {
      // The error notice shows the code and message.
    } finally {
      setBusy(false);
    }
  }

  return (
    <Form layout="vertical" onFinish={submit} requiredMark={false} name="login">
      <Form.Item name="user" label={t('login.account')} rules={[shared(checkRequired)]}>
        <Input prefix={<UserOutlined />} autoComplete="username" />
      </Form.Item>
      <Form.Item name="pwd" label={t('login.password')} rules={[shared(checkRequired)]}>
        <Input.Password prefix={<LockOutlined />} autoComplete="current-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={busy}>
        {t('login.submit')}
      </Button>
      <div className="login-links">
        <Link to="/login/register">{t('login.register')}</Link>
        <Link to="/login/forget">{t('login.forget')}</Link>
      </div>
    </Form>
  );
}
