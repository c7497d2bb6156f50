import { Empty } from 'antd';
import { useTranslation } from 'react-i18next';

/** /dev/data without a table chosen. */
export default function DataHome() {
  const { t } = useTranslation();
  return <Empty className="center-pad" description={t('entity.pick')} />;
}
