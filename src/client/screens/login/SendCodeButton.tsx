import { Button, type FormInstance } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { VERIFY_CODE_COOLDOWN_MS, type VerifyType } from '../../../shared/constants.ts';
import { checkRequired, message } from '../../../shared/validation.ts';
import { api } from '../../api/account.ts';
import { currentLang } from '../../i18n/index.ts';

interface Props {
  form: FormInstance;
  type: VerifyType;
  ticket: string | undefined;
  /** A ticket is used up by one try: get a new image after each. */
  onTicketUsed: () => void;
  onSent: () => void;
}

/** "Send code": checks phone and captcha fields, asks for the SMS code, then counts down 60 s. */
export function SendCodeButton({ form, type, ticket, onTicketUsed, onSent }: Props) {
  const { t } = useTranslation();
  const [left, setLeft] = useState(0);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft(left - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);

  async function send() {
    let phone: string;
    try {
      ({ phone } = await form.validateFields(['phone']));
    } catch {
      return;
    }
    const randstr = String(form.getFieldValue('randstr') ?? '').trim();
    const missing = checkRequired(randstr);
    if (missing) {
      form.setFields([{ name: 'randstr', errors: [message(missing, currentLang())] }]);
      return;
    }
    if (!ticket) return onTicketUsed();
    setBusy(true);
    try {
      await api.verifyCode(phone, ticket, randstr, type);
      setLeft(VERIFY_CODE_COOLDOWN_MS / 1000);
      onSent();
    } catch {
      // The notice already says why.
    } finally {
      setBusy(false);
      form.setFieldValue('randstr', '');
      onTicketUsed();
    }
  }

  return (
    <Button onClick={send} loading={busy} disabled={left > 0} data-testid="send-code">
      {left > 0 ? t('register.resend', { seconds: left }) : t('register.sendCode')}
    </Button>
  );
}
