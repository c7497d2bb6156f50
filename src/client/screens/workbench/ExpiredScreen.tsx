import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** /dev/expired: the current system is limited (quota flag or past its expiry). */
export default function ExpiredScreen() {
  const { t } = useTranslation();
  return (
    <Result
      status="warning"
      title={t('wb.expiredTitle')}
      subTitle={t('wb.expiredBody')}
      extra={
        <Button>
          <Link to="/dev/preview">{t('wb.preview')}</Link>
        </Button>
      }
      data-testid="expired"
    />
  );
}
