import { Form, Input, Space } from 'antd';
import { useTranslation } from 'react-i18next';

/** The typed answer to the image captcha, with the image (click for a new one). */
export function CaptchaField({ img, onRefresh }: { img: string | undefined; onRefresh: () => void }) {
  const { t } = useTranslation();
  return (
    <Form.Item label={t('register.captcha')} required>
      <Space.Compact block>
        {/* Checked only when a code is asked for (SendCodeButton): the answer is spent by then. */}
        <Form.Item name="randstr" noStyle>
          <Input maxLength={8} autoComplete="off" aria-label={t('register.captcha')} />
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
