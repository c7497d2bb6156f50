import { Result } from 'antd';
import { useTranslation } from 'react-i18next';

/** /dev/queue: where code 102 sends the user while the platform queue is busy. */
export default function QueueScreen() {
  const { t } = useTranslation();
  return <Result status="info" title={t('queue.title')} subTitle={t('queue.body')} />;
}
