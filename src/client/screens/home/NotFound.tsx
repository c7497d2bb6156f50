import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** A client route that does not exist (yet). */
export default function NotFound() {
  const { t } = useTranslation();
  return (
    <Result
      status="404"
      title="404"
      subTitle={t('home.notFound')}
      extra={
        <Button type="primary">
          <Link to="/">{t('home.home')}</Link>
        </Button>
      }
    />
  );
}
