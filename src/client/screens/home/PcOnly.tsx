import { DesktopOutlined } from '@ant-design/icons';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useShell } from '../../stores/shell.ts';

/** /pc-only: the feature needs a desktop browser; offers switching to desktop mode and going home. */
export default function PcOnly() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div className="login-page">
      <Result
        icon={<DesktopOutlined />}
        title={t('pcOnly.title')}
        subTitle={t('pcOnly.body')}
        extra={[
          <Button
            key="pc"
            type="primary"
            onClick={() => {
              useShell.getState().setScreenMode('pc');
              navigate('/', { replace: true });
            }}
          >
            {t('pcOnly.toPc')}
          </Button>,
        ]}
      />
    </div>
  );
}
