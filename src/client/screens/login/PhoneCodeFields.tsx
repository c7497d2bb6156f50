import { App, Form, type FormInstance, Input, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import type { VerifyType } from '../../../shared/constants.ts';
import { checkCode, checkPhone } from '../../../shared/validation.ts';
import { CaptchaField } from './CaptchaField.tsx';
import { shared } from './rules.ts';
import { SendCodeButton } from './SendCodeButton.tsx';
import { useCaptcha } from './use-captcha.ts';

/** Phone, image captcha, and the SMS code with its send button (register and reset). */
export function PhoneCodeFields({ form, type }: { form: FormInstance; type: VerifyType }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const captcha = useCaptcha();
  return (
    <>
      <Form.Item name="phone" label={t('register.phone')} rules={[shared(checkPhone)]}>
        <Input inputMode="tel" autoComplete="tel" maxLength={16} />
      </Form.Item>
      <CaptchaField img={captcha.img} onRefresh={captcha.refresh} />
      <Form.Item label={t('register.code')} required>
        <Space.Compact block>
          <Form.Item name="verify" noStyle rules={[shared(checkCode)]}>
            <Input
              inputMode="numeric"
              maxLength={6}
              autoComplete="one-time-code"
              aria-label={t('register.code')}
            />
          </Form.Item>
          <SendCodeButton
            form={form}
            type={type}
            ticket={captcha.ticket}
            onTicketUsed={captcha.refresh}
            onSent={() => message.success(t('register.codeSent'))}
          />
        </Space.Compact>
      </Form.Item>
    </>
  );
}
