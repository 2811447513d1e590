// What a signed-in staff user sees until the dashboard feature is composed here.
import { useTranslation } from 'react-i18next';
import { LanguageSelector } from '../components/language-selector';

export function SignedInShell(): React.JSX.Element {
  const { t } = useTranslation();
  return (
    <main className="p-6">
      <div className="flex items-center justify-between">
        <h1 className="text-xl font-semibold">{t('appName')}</h1>
        <LanguageSelector />
      </div>
    </main>
  );
}
