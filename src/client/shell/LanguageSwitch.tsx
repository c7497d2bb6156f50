import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Lang } from '../../shared/validation.ts';
import { currentLang, LANGS, setLang } from '../i18n/index.ts';

/** zh / en switch; the choice is stored locally. */
export function LanguageSwitch() {
  const { t } = useTranslation();
  return (
    <Segmented<Lang>
      aria-label={t('lang.label')}
      size="small"
      value={currentLang()}
      options={LANGS.map((l) => ({ value: l, label: t(`lang.${l}`) }))}
      onChange={setLang}
      data-testid="lang-switch"
    />
  );
}
