import { AppstoreAddOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Input, List, Modal, Radio, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Project } from '../../api/account.ts';
import { get, post } from '../../api/request.ts';
import { showServerError } from './server-errors.ts';

interface Localized {
  zh: string;
  en: string;
}

interface Sample {
  app: string;
  title: Localized;
  summary: Localized;
  mode: 'pc' | 'mobile';
  pages: string[];
}

interface Props {
  /** The new project, and the workbench path to open in it. */
  onCreated(p: Project, path: string): void;
}

/** "New system from a sample": pick a playground app, name the system, get a copy to edit. */
export function SampleProjectButton({ onCreated }: Props) {
  const { t, i18n } = useTranslation();
  const lang: keyof Localized = i18n.language === 'zh' ? 'zh' : 'en';
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [samples, setSamples] = useState<Sample[] | null>(null);
  const [form] = Form.useForm<{ app: string; name: string }>();

  function show() {
    setOpen(true);
    if (!samples)
      get<Sample[]>('/api/common/playground/samples', { share: false }).then(setSamples, () =>
        setSamples([]),
      );
  }

  async function create({ app, name }: { app: string; name: string }) {
    setBusy(true);
    try {
      const made = await post<{ project: Project; page: string }>(
        '/api/common/playground/copy',
        { app, name: name.trim() },
        { quiet: true },
      );
      setOpen(false);
      form.resetFields();
      onCreated(made.project, '/dev/pages');
    } catch (err) {
      showServerError(form, err, { name: 'name', app: 'app' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <Button icon={<AppstoreAddOutlined />} onClick={show} data-testid="new-from-sample">
        {t('playground.fromSample')}
      </Button>
      <Modal
        title={t('playground.fromSample')}
        open={open}
        onCancel={() => !busy && setOpen(false)}
        onOk={() => form.submit()}
        okText={t('common.ok')}
        cancelText={t('common.cancel')}
        confirmLoading={busy}
        width={640}
        destroyOnHidden
      >
        <Form
          form={form}
          layout="vertical"
          name="wb-sample-project"
          onFinish={create}
          onValuesChange={(changed: { app?: string }) => {
            const chosen = samples?.find((s) => s.app === changed.app);
            // The system's name follows the chosen sample until the builder types one.
            if (chosen && !form.isFieldTouched('name')) form.setFieldValue('name', chosen.title[lang]);
          }}
        >
          <Form.Item
            name="app"
            label={t('playground.chooseSample')}
            rules={[{ required: true, message: t('common.required') }]}
          >
            <Radio.Group
              className="wb-samples"
              data-testid="sample-list"
              style={{ display: 'block', maxHeight: 360, overflowY: 'auto' }}
            >
              <List
                loading={!samples}
                dataSource={samples ?? []}
                renderItem={(s) => (
                  <List.Item key={s.app}>
                    <Radio value={s.app} data-app={s.app} aria-label={s.title[lang]}>
                      <Space direction="vertical" size={0}>
                        <Space size="small">
                          <Typography.Text strong>{s.title[lang]}</Typography.Text>
                          <Tag>{t(`playground.${s.mode}`)}</Tag>
                          <Typography.Text type="secondary">
                            {t('playground.samplePages', { count: s.pages.length })}
                          </Typography.Text>
                        </Space>
                        <Typography.Text type="secondary">{s.summary[lang]}</Typography.Text>
                      </Space>
                    </Radio>
                  </List.Item>
                )}
              />
            </Radio.Group>
          </Form.Item>
          <Form.Item
            name="name"
            label={t('wb.projectName')}
            rules={[{ required: true, whitespace: true, message: t('common.required') }]}
          >
            <Input maxLength={128} data-testid="sample-project-name" />
          </Form.Item>
          {busy ? <Alert type="info" showIcon message={t('playground.sampleCopying')} /> : null}
        </Form>
      </Modal>
    </>
  );
}
