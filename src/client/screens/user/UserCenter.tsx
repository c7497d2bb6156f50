import {
  App,
  Button,
  Card,
  Descriptions,
  Form,
  Input,
  List,
  Space,
  Switch,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorByCode } from '../../../shared/errors.ts';
import {
  checkNickname,
  checkPassword,
  checkRepeat,
  checkRequired,
  displayName,
  NICKNAME_MAX,
} from '../../../shared/validation.ts';
import { ApiError } from '../../api/api-error.ts';
import { shellApi } from '../../api/shell.ts';
import { setToken } from '../../api/storage.ts';
import { currentLang, earlyAccess, setEarlyAccess } from '../../i18n/index.ts';
import { LanguageSwitch } from '../../shell/LanguageSwitch.tsx';
import { roleTitle } from '../../shell/role-title.ts';
import { useAppProject, useNarrow } from '../../shell/use-app-project.ts';
import { useSession } from '../../stores/session.ts';
import { useShell } from '../../stores/shell.ts';
import { useWorkbench } from '../../stores/workbench.ts';
import { PhoneCodeFields } from '../login/PhoneCodeFields.tsx';
import { sameAs, shared } from '../login/rules.ts';
import { Orders } from './Orders.tsx';
import { RoleChoices } from './RoleChoices.tsx';
import { ThirdBind } from './ThirdBind.tsx';

/** The text of a failed call in the current language. */
function errorText(err: unknown): string {
  if (!(err instanceof ApiError)) return String(err);
  const def = errorByCode(err.code);
  if (def && currentLang() === 'zh' && (err.message === def.msg || err.message.startsWith(`${def.msg}:`))) {
    return def.zh + err.message.slice(def.msg.length);
  }
  return err.message;
}

/** Which form field a coded error belongs to. */
function fieldOf(err: unknown, fallback: string): string {
  if (!(err instanceof ApiError)) return fallback;
  if (err.code === 1111) return 'pwd';
  if (err.code === 1106) return 'phone';
  if (err.code === 1107) return 'verify';
  return fallback;
}

function BasicSettings() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const user = useSession((s) => s.user)!;
  const [form] = Form.useForm<{ nickname: string }>();
  const [busy, setBusy] = useState(false);
  async function save({ nickname }: { nickname: string }) {
    setBusy(true);
    try {
      useSession.getState().setUser(await shellApi.updateNickname(nickname.trim()));
      message.success(t('user.saved'));
    } catch (err) {
      form.setFields([{ name: 'nickname', errors: [errorText(err)] }]);
    } finally {
      setBusy(false);
    }
  }
  return (
    <Card title={t('user.basic')} className="home-card">
      <Descriptions column={1} size="small" className="user-facts">
        <Descriptions.Item label={t('user.account')}>{user.account ?? '—'}</Descriptions.Item>
        <Descriptions.Item label={t('user.phone')}>
          <span data-testid="user-phone">{user.phone ?? t('user.noPhone')}</span>
        </Descriptions.Item>
      </Descriptions>
      <Form
        form={form}
        name="basic"
        layout="vertical"
        initialValues={{ nickname: user.nickname }}
        onFinish={save}
      >
        <Form.Item
          name="nickname"
          label={t('user.nickname')}
          extra={t('user.nicknameHint', { max: NICKNAME_MAX })}
          rules={[shared(checkRequired), shared(checkNickname)]}
        >
          <Input maxLength={64} showCount={{ formatter: ({ count }) => `${count} / ${NICKNAME_MAX}` }} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy} data-testid="save-nickname">
          {t('common.save')}
        </Button>
      </Form>
    </Card>
  );
}

function PhoneChange() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const [busy, setBusy] = useState(false);
  async function save(v: { phone: string; verify: string; pwd: string }) {
    setBusy(true);
    try {
      useSession.getState().setUser(await shellApi.changePhone(v.phone.trim(), v.verify, v.pwd));
      message.success(t('user.saved'));
      form.resetFields();
    } catch (err) {
      form.setFields([{ name: fieldOf(err, 'verify'), errors: [errorText(err)] }]);
    } finally {
      setBusy(false);
    }
  }
  return (
    <Form form={form} name="phone-change" layout="vertical" onFinish={save} data-testid="phone-form">
      <Typography.Title level={5}>{t('user.changePhone')}</Typography.Title>
      <PhoneCodeFields form={form} type="phone" />
      <Form.Item name="pwd" label={t('user.loginPwd')} rules={[shared(checkRequired)]}>
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <Button htmlType="submit" loading={busy}>
        {t('user.changePhone')}
      </Button>
    </Form>
  );
}

function PasswordChange() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const [busy, setBusy] = useState(false);
  async function save(v: { pwd: string; newPwd: string }) {
    setBusy(true);
    try {
      const { token } = await shellApi.changePassword(v.pwd, v.newPwd);
      // Every other session ended; this tab keeps going with the fresh token.
      setToken(token);
      message.success(t('user.saved'));
      form.resetFields();
    } catch (err) {
      form.setFields([{ name: fieldOf(err, 'newPwd'), errors: [errorText(err)] }]);
    } finally {
      setBusy(false);
    }
  }
  return (
    <Form form={form} name="password-change" layout="vertical" onFinish={save} data-testid="password-form">
      <Typography.Title level={5}>{t('user.changePassword')}</Typography.Title>
      <Form.Item name="pwd" label={t('user.currentPwd')} rules={[shared(checkRequired)]}>
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <Form.Item
        name="newPwd"
        label={t('user.newPwd')}
        rules={[shared(checkPassword)]}
        extra={t('register.passwordHint')}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="repeat"
        label={t('user.repeat')}
        dependencies={['newPwd']}
        rules={[sameAs('newPwd', checkRepeat)]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Button htmlType="submit" loading={busy}>
        {t('user.changePassword')}
      </Button>
    </Form>
  );
}

function Security() {
  const { t } = useTranslation();
  return (
    <Card title={t('user.security')} className="home-card">
      <Space orientation="vertical" size="large" className="user-security">
        <PhoneChange />
        <PasswordChange />
        <ThirdBind provider="weixin" />
        <ThirdBind provider="wxwork" />
      </Space>
    </Card>
  );
}

function Language() {
  const { t } = useTranslation();
  const [early, setEarly] = useState(earlyAccess());
  return (
    <Card title={t('user.language')} className="home-card">
      <Space orientation="vertical">
        <LanguageSwitch />
        <span className="wb-mode">
          <Switch
            size="small"
            aria-label={t('user.earlyAccess')}
            checked={early}
            onChange={(on) => {
              setEarlyAccess(on);
              setEarly(on);
            }}
            data-testid="early-access"
          />
          {t('user.earlyAccess')}
        </span>
      </Space>
    </Card>
  );
}

function Projects() {
  const { t } = useTranslation();
  const { projects, current } = useAppProject();
  const custom = useShell((s) => s.custom);
  return (
    <Card title={t('user.projects')} className="home-card">
      <Typography.Paragraph>
        {t('user.currentSystem')}: <b data-testid="current-system">{current?._name ?? '—'}</b>
      </Typography.Paragraph>
      <List
        dataSource={projects}
        data-testid="joined-projects"
        renderItem={(p) => (
          <List.Item
            key={p._id}
            extra={
              p._id === current?._id ? (
                <Tag color="blue">{t('user.inUse')}</Tag>
              ) : (
                <Button
                  size="small"
                  disabled={custom !== null}
                  onClick={() => useWorkbench.getState().setProject(p._id)}
                  aria-label={`${t('user.switchSystem')}: ${p._name}`}
                >
                  {t('user.switchTo')}
                </Button>
              )
            }
          >
            <List.Item.Meta title={p._name} description={roleTitle(p.role, t) ?? ''} />
          </List.Item>
        )}
      />
      {current ? <RoleChoices key={current._id} project={current._id} /> : null}
    </Card>
  );
}

/** /user: basic, security, language, joined systems (spec §2 "User center"). */
export default function UserCenter() {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  const narrow = useNarrow();
  if (!user) return null;
  const items = [
    { key: 'basic', label: t('user.basic'), children: <BasicSettings /> },
    { key: 'security', label: t('user.security'), children: <Security /> },
    { key: 'language', label: t('user.language'), children: <Language /> },
    { key: 'projects', label: t('user.projects'), children: <Projects /> },
    { key: 'orders', label: t('pay.orders'), children: <Orders /> },
  ];
  return (
    <div className="user-center" data-testid="user-center">
      <Typography.Title level={3}>
        {t('user.title')} · <span data-testid="user-name">{displayName(user)}</span>
      </Typography.Title>
      <Tabs items={items} tabPlacement={narrow ? 'top' : 'start'} />
    </div>
  );
}
