import { PlusOutlined } from '@ant-design/icons';
import { App, Button, Form, Input, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NOTICE_MS } from '../../../shared/constants.ts';
import { checkRequired } from '../../../shared/validation.ts';
import { api, type Project } from '../../api/account.ts';
import { shared } from '../login/rules.ts';

/** "Create a system": a name, then the new project is handed to `onCreated`. */
export function CreateProjectForm({ onCreated }: { onCreated: (p: Project) => void }) {
  const { t } = useTranslation();
  const { notification } = App.useApp();
  const [form] = Form.useForm<{ name: string }>();
  const [busy, setBusy] = useState(false);

  async function submit({ name }: { name: string }) {
    setBusy(true);
    try {
      const project = await api.createProject(name.trim());
      form.resetFields();
      notification.success({
        title: t('notice.successTitle'),
        description: t('home.created'),
        duration: NOTICE_MS / 1000,
      });
      onCreated(project);
    } catch {
      // The error notice shows the code and message.
    } finally {
      setBusy(false);
    }
  }

  return (
    <Form form={form} onFinish={submit} name="create-project" layout="vertical" requiredMark={false}>
      <Form.Item label={t('home.name')} required>
        <Space.Compact block>
          <Form.Item name="name" noStyle rules={[shared(checkRequired)]}>
            <Input maxLength={128} placeholder={t('home.name')} />
          </Form.Item>
          <Button type="primary" htmlType="submit" icon={<PlusOutlined />} loading={busy}>
            {t('home.create')}
          </Button>
        </Space.Compact>
      </Form.Item>
    </Form>
  );
}
