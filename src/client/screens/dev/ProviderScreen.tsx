import { Alert, Button, Card, Form, Input, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LanguageSwitch } from '../../shell/LanguageSwitch.tsx';
import { PROJECT_ID } from '../../shell/navigation.ts';
import { useShell } from '../../stores/shell.ts';

/**
 * /dev/provider: provider mode's project prefix (spec §2). Setting it makes the shell prefix every
 * path with that project id (navigation rule 2); clearing it goes back to plain paths.
 */
export default function ProviderScreen() {
  const { t } = useTranslation();
  const custom = useShell((s) => s.custom);
  const [form] = Form.useForm<{ prefix: string }>();
  return (
    <div className="login-page">
      <div className="login-top">
        <span className="top-title">{t('provider.title')}</span>
        <LanguageSwitch />
      </div>
      <Card className="login-card" data-testid="provider">
        <Typography.Paragraph>{t('provider.body')}</Typography.Paragraph>
        <Alert
          type={custom ? 'success' : 'info'}
          title={custom ? t('provider.current', { prefix: custom }) : t('provider.none')}
          className="home-card"
          data-testid="provider-current"
        />
        <Form
          form={form}
          layout="vertical"
          initialValues={{ prefix: custom ?? '' }}
          onFinish={({ prefix }) => useShell.getState().setCustom(prefix.trim().toLowerCase())}
        >
          <Form.Item
            name="prefix"
            label={t('provider.prefix')}
            rules={[
              {
                validator: (_r, v: string) =>
                  PROJECT_ID.test(String(v ?? '').trim())
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('provider.invalid'))),
              },
            ]}
          >
            <Input maxLength={24} spellCheck={false} />
          </Form.Item>
          <Space wrap>
            <Button type="primary" htmlType="submit">
              {t('provider.save')}
            </Button>
            <Button
              disabled={!custom}
              onClick={() => {
                useShell.getState().setCustom(null);
                form.setFieldsValue({ prefix: '' });
              }}
            >
              {t('provider.clear')}
            </Button>
            {custom ? (
              <Link to={`/${custom}`}>{t('shell.toHome')}</Link>
            ) : (
              <Link to="/">{t('shell.toHome')}</Link>
            )}
          </Space>
        </Form>
      </Card>
    </div>
  );
}
