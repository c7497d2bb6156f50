import { Form, Input, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { checkRequired } from '../../../shared/validation.ts';
import { shared } from './rules.ts';

/** The typed answer to the image captcha, with the image (click for a new one). */
export function CaptchaField({ img, onRefresh }: { img: string | undefined; onRefresh: () => void }) {
  const { t } = useTranslation();
  return (
    <Form.Item label={t('register.captcha')} required>
      <Space.Compact block>
        <Form.Item name="randstr" noStyle rules={[shared(checkRequired)]}>
          <Input maxLength={8} autoComplete="off" placeholder={t('register.captcha')} />
        </Form.Item>
        <button
          type="button"
          className="captcha-img"
          title={t('register.captchaRefresh')}
          onClick={onRefresh}
          data-testid="captcha-img"
        >
          {img ? <img src={img} alt={t('register.captcha')} width={120} height={40} /> : null}
        </button>
      </Space.Compact>
    </Form.Item>
  );
}
