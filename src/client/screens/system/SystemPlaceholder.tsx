import { Button, Result, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { homePath } from '../../shell/navigation.ts';
import { useShell } from '../../stores/shell.ts';

/**
 * /system/…: the administration area (second document) is built by others; until it lands each of
 * its routes shows this notice with a way back, never a blank screen.
 */
export default function SystemPlaceholder() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const custom = useShell((s) => s.custom);
  return (
    <Result
      status="info"
      title={t('shell.notYet')}
      subTitle={t('shell.notYetBody', { path: pathname })}
      data-testid="system-placeholder"
      extra={
        <Space>
          <Button onClick={() => navigate(-1)}>{t('shell.back')}</Button>
          <Button type="primary">
            <Link to={homePath(null, custom)} replace>
              {t('shell.toHome')}
            </Link>
          </Button>
        </Space>
      }
    />
  );
}
