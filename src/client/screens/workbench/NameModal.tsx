import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { showServerError } from './server-errors.ts';

interface Props {
  title: string;
  label: string;
  initial?: string;
  onSubmit(name: string): Promise<unknown>;
  onClose(): void;
}

/** A one-input dialog (module create and rename); server errors land beside the input. */
export function NameModal({ title, label, initial, onSubmit, onClose }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string }>();
  async function finish({ name }: { name: string }) {
    try {
      await onSubmit(name.trim());
      onClose();
    } catch (err) {
      showServerError(form, err, { name: 'name' });
    }
  }
  return (
    <Modal
      open
      title={title}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={finish}
        initialValues={{ name: initial ?? '' }}
        name="name-modal"
      >
        <Form.Item
          name="name"
          label={label}
          rules={[{ required: true, whitespace: true, message: t('common.required') }]}
        >
          <Input maxLength={128} autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}
