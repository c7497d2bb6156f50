import { PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, Modal, Select, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Project } from '../../api/account.ts';
import { wb } from '../../api/workbench.ts';
import { SampleProjectButton } from './SampleProjectButton.tsx';
import { showServerError } from './server-errors.ts';

interface Props {
  projects: Project[];
  current: string | null;
  onSwitch(id: string): void;
  /** A new project; `path`: where to open it (else the data area). */
  onCreated(p: Project, path?: string): void;
}

/** The current system with a switcher, "new system" and "new system from a sample". */
export function ProjectSwitcher({ projects, current, onSwitch, onCreated }: Props) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<{ name: string }>();

  async function create({ name }: { name: string }) {
    setBusy(true);
    try {
      const p = await wb.createProject(name.trim());
      setOpen(false);
      form.resetFields();
      onCreated(p);
    } catch (err) {
      showServerError(form, err, { name: 'name' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Space.Compact>
      <Select
        aria-label={t('wb.project')}
        data-testid="project-switcher"
        className="wb-project-select"
        value={current ?? undefined}
        onChange={onSwitch}
        popupMatchSelectWidth={false}
        options={projects.map((p) => ({
          value: p._id,
          label: (
            <span>
              {p._name} {p.role ? <Tag className="wb-role-tag">{p.role}</Tag> : null}
            </span>
          ),
        }))}
      />
      <Button
        icon={<PlusOutlined />}
        onClick={() => setOpen(true)}
        data-testid="new-project"
        title={t('wb.createProject')}
      >
        {t('wb.createProject')}
      </Button>
      <SampleProjectButton onCreated={onCreated} />
      <Modal
        title={t('wb.createProject')}
        open={open}
        onCancel={() => setOpen(false)}
        onOk={() => form.submit()}
        okText={t('common.ok')}
        cancelText={t('common.cancel')}
        confirmLoading={busy}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" onFinish={create} name="wb-create-project">
          <Form.Item
            name="name"
            label={t('wb.projectName')}
            rules={[{ required: true, whitespace: true, message: t('common.required') }]}
          >
            <Input maxLength={128} autoFocus />
          </Form.Item>
        </Form>
      </Modal>
    </Space.Compact>
  );
}
