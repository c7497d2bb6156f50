import { Segmented, Select } from 'antd';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { currentUiLang, earlyAccess, onEarlyAccess, setLang, type UiLang, uiLangs } from '../i18n/index.ts';

/** zh / en switch (a list with the early-access languages when that mode is on); stored locally. */
export function LanguageSwitch() {
  const { t } = useTranslation();
  // Re-render when early-access mode is switched (it adds jp, vie and yue).
  useSyncExternalStore(onEarlyAccess, earlyAccess);
  const langs = uiLangs();
  const options = langs.map((l) => ({ value: l, label: t(`lang.${l}`) }));
  if (langs.length > 2) {
    return (
      <Select<UiLang>
        aria-label={t('lang.label')}
        size="small"
        value={currentUiLang()}
        options={options}
        onChange={setLang}
        popupMatchSelectWidth={false}
        data-testid="lang-switch"
      />
    );
  }
  return (
    <Segmented<UiLang>
      aria-label={t('lang.label')}
      size="small"
      value={currentUiLang()}
      options={options}
      onChange={setLang}
      data-testid="lang-switch"
    />
  );
}
