import { Button, Form, Input, Result } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { checkPassword, checkRepeat } from '../../../shared/validation.ts';
import { api } from '../../api/account.ts';
import { PhoneCodeFields } from './PhoneCodeFields.tsx';
import { sameAs, shared } from './rules.ts';

const BACK_AFTER_S = 3;

type Values = { phone: string; verify: string; pwd: string; repeat: string; randstr: string };

/** Forgot password: phone + SMS code + new password; after success a countdown back to sign-in. */
export default function ForgetForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const [left, setLeft] = useState<number | null>(null);

  useEffect(() => {
    if (left === null) return;
    if (left <= 0) {
      navigate('/login', { replace: true });
      return;
    }
    const timer = setTimeout(() => setLeft(left - 1), 1000);
    return () => clearTimeout(timer);
  }, [left, navigate]);

  async function submit(v: Values) {
    setBusy(true);
    try {
      await api.resetPwd(v.phone, v.verify, v.pwd);
      setLeft(BACK_AFTER_S);
    } catch {
      // The error notice shows the code and message.
    } finally {
      setBusy(false);
    }
  }

  if (left !== null) {
    return (
      <Result
        status="success"
        title={t('forget.done')}
        subTitle={<span data-testid="reset-countdown">{t('forget.countdown', { seconds: left })}</span>}
        extra={<Link to="/login">{t('login.back')}</Link>}
      />
    );
  }

  return (
    <Form form={form} layout="vertical" onFinish={submit} name="forget" requiredMark={false}>
      <PhoneCodeFields form={form} type="reset" />
      <Form.Item
        name="pwd"
        label={t('forget.password')}
        extra={t('register.passwordHint')}
        rules={[shared(checkPassword)]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="repeat"
        label={t('register.repeat')}
        dependencies={['pwd']}
        rules={[sameAs('pwd', checkRepeat)]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={busy}>
        {t('forget.submit')}
      </Button>
      <div className="login-links">
        <Link to="/login">{t('login.back')}</Link>
      </div>
    </Form>
  );
}
