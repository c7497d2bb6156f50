import { App, Form, Input, Modal, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Member, membersApi, type Role } from '../../api/system.ts';
import { showServerError } from '../workbench/server-errors.ts';
import { useProject } from '../workbench/workbench-context.ts';

interface Props {
  roles: Role[];
  onClose(): void;
  onDone(): Promise<void>;
}

function RoleField({ roles }: { roles: Role[] }) {
  const { t } = useTranslation();
  return (
    <Form.Item
      name="role"
      label={t('sys.memberRole')}
      rules={[{ required: true, message: t('sys.chooseRole') }]}
    >
      <Select options={roles.map((r) => ({ value: r._id, label: r.name }))} data-testid="form-role" />
    </Form.Item>
  );
}

/** Submits a form's values through `call`; errors go beside the input they name. */
function useSubmit<T>(
  call: (v: T) => Promise<unknown>,
  done: string,
  props: { onClose(): void; onDone(): Promise<void> },
) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const [busy, setBusy] = useState(false);
  const submit = async (v: T) => {
    setBusy(true);
    try {
      await call(v);
      message.success(t(done));
      await props.onDone();
      props.onClose();
    } catch (err) {
      showServerError(form, err, {
        account: 'account',
        pwd: 'pwd',
        name: 'name',
        phone: 'phone',
        role: 'role',
      });
    } finally {
      setBusy(false);
    }
  };
  return { form, busy, submit };
}

export function CreateMemberModal(props: Props) {
  const { t } = useTranslation();
  const p = useProject()._id;
  type V = { role: string; account: string; pwd: string; name: string; phone?: string };
  const { form, busy, submit } = useSubmit<V>(
    (v) =>
      membersApi.create(p, {
        ...v,
        account: v.account.trim(),
        name: v.name.trim(),
        phone: v.phone?.trim() || null,
      }),
    'sys.createdOk',
    props,
  );
  return (
    <Modal
      open
      title={t('sys.createSub')}
      onCancel={props.onClose}
      onOk={() => form.submit()}
      confirmLoading={busy}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" name="member-create" onFinish={submit}>
        <Form.Item
          name="account"
          label={t('sys.account')}
          rules={[{ required: true, message: t('common.required') }]}
          extra={t('sys.accountHint')}
        >
          <Input maxLength={16} autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="name"
          label={t('sys.memberName')}
          rules={[{ required: true, whitespace: true, message: t('common.required') }]}
        >
          <Input maxLength={12} />
        </Form.Item>
        <Form.Item
          name="pwd"
          label={t('sys.password')}
          rules={[{ required: true, message: t('common.required') }]}
          extra={t('register.passwordHint')}
        >
          <Input.Password maxLength={32} autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="phone" label={t('sys.phoneOptional')}>
          <Input maxLength={20} />
        </Form.Item>
        <RoleField roles={props.roles} />
      </Form>
    </Modal>
  );
}

export function BindMemberModal(props: Props) {
  const { t } = useTranslation();
  const p = useProject()._id;
  type V = { role: string; login: string };
  const { form, busy, submit } = useSubmit<V>(
    (v) => {
      const login = v.login.trim();
      return membersApi.bind(
        p,
        /^\+?\d+$/.test(login) ? { role: v.role, phone: login } : { role: v.role, account: login },
      );
    },
    'sys.boundOk',
    props,
  );
  return (
    <Modal
      open
      title={t('sys.bindUser')}
      onCancel={props.onClose}
      onOk={() => form.submit()}
      confirmLoading={busy}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" name="member-bind" onFinish={submit}>
        <Form.Item
          name="login"
          label={t('sys.accountOrPhone')}
          rules={[{ required: true, whitespace: true, message: t('common.required') }]}
        >
          <Input maxLength={64} autoComplete="off" />
        </Form.Item>
        <RoleField roles={props.roles} />
      </Form>
    </Modal>
  );
}

/** A sub-user's name and password (reset); bound users manage their own account. */
export function EditMemberModal({
  member,
  onClose,
  onDone,
}: {
  member: Member;
  onClose(): void;
  onDone(): Promise<void>;
}) {
  const { t } = useTranslation();
  const p = useProject()._id;
  type V = { name: string; pwd?: string };
  const { form, busy, submit } = useSubmit<V>(
    (v) => membersApi.update(p, member._id, { name: v.name.trim(), ...(v.pwd ? { pwd: v.pwd } : {}) }),
    'sys.modifiedOk',
    { onClose, onDone },
  );
  return (
    <Modal
      open
      title={t('sys.editMember')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={busy}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        name="member-edit"
        onFinish={submit}
        initialValues={{ name: member.name }}
      >
        <Form.Item
          name="name"
          label={t('sys.memberName')}
          rules={[{ required: true, whitespace: true, message: t('common.required') }]}
        >
          <Input maxLength={12} />
        </Form.Item>
        <Form.Item name="pwd" label={t('sys.resetPassword')} extra={t('register.passwordHint')}>
          <Input.Password maxLength={32} autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
