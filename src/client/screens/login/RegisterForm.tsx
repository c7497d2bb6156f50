import { Button, Checkbox, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import {
  checkAccount,
  checkNickname,
  checkPassword,
  checkRepeat,
  checkTerms,
} from '../../../shared/validation.ts';
import { api, type RegisterInput } from '../../api/account.ts';
import { PROJECT_ID } from '../../shell/navigation.ts';
import { signIn } from '../../shell/session.ts';
import { useWorkbench } from '../../stores/workbench.ts';
import { PhoneCodeFields } from './PhoneCodeFields.tsx';
import { sameAs, shared } from './rules.ts';

type Values = RegisterInput & { repeat: string; terms: boolean; randstr: string };

/** Registration: account, name, phone with SMS code, passwords, terms; then signed in at home. */
export default function RegisterForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  // A role's registration link (?project=&role=, role option reg) registers straight into it.
  const [params] = useSearchParams();
  const into: { project?: string; role?: string } = PROJECT_ID.test(params.get('project') ?? '')
    ? {
        project: params.get('project')!,
        ...(PROJECT_ID.test(params.get('role') ?? '') ? { role: params.get('role')! } : {}),
      }
    : {};

  async function submit(v: Values) {
    setBusy(true);
    try {
      const user = v.user.trim();
      await api.register({
        user,
        pwd: v.pwd,
        phone: v.phone,
        verify: v.verify,
        nickname: v.nickname.trim(),
        ...into,
      });
      await signIn(user, v.pwd);
      if (into.project) useWorkbench.getState().setProject(into.project);
      navigate('/', { replace: true });
    } catch {
      // The error notice shows the code and message.
    } finally {
      setBusy(false);
    }
  }

  return (
    <Form form={form} layout="vertical" onFinish={submit} name="register" requiredMark={false}>
      <Form.Item name="user" label={t('register.account')} rules={[shared(checkAccount)]}>
        <Input autoComplete="username" maxLength={16} />
      </Form.Item>
      <Form.Item name="nickname" label={t('register.nickname')} rules={[shared(checkNickname)]}>
        <Input autoComplete="organization" />
      </Form.Item>
      <PhoneCodeFields form={form} type="reg" />
      <Form.Item
        name="pwd"
        label={t('register.password')}
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
      <Form.Item name="terms" valuePropName="checked" rules={[shared(checkTerms)]}>
        <Checkbox>{t('register.terms')}</Checkbox>
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={busy}>
        {t('register.submit')}
      </Button>
      <div className="login-links">
        <Link to="/login">{t('register.haveAccount')}</Link>
      </div>
    </Form>
  );
}
