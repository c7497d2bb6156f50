import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { homePath } from '../../shell/navigation.ts';
import { useShell } from '../../stores/shell.ts';

/** Where a user lands on a menu or page their role is not granted (spec §2 /no-authority). */
export default function NoAuthority() {
  const { t } = useTranslation();
  const custom = useShell((s) => s.custom);
  return (
    <Result
      status="403"
      title={t('noAuth.title')}
      subTitle={t('noAuth.body')}
      data-testid="no-authority"
      extra={
        <Button type="primary">
          <Link to={homePath(null, custom)} replace>
            {t('shell.toHome')}
          </Link>
        </Button>
      }
    />
  );
}
