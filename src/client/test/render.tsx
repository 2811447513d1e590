// Renders a component as the app does: a fresh query client with the app's settings, the real translations of the
// chosen language (startI18n's bundles, loaded from src/client/locales), and the toaster.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import i18n from '../lib/i18n';
import { Toaster } from '../components/ui/toast';
import { CORE_NAMESPACES, LAZY_NAMESPACES, loadBundle } from '../locales';
import { getQueryFn } from '../lib/api-client';
import { shouldRetry, shouldRetryMutation } from '../lib/query-client';
import type { LanguageCode } from '../lib/i18n';
import type { Resources } from '../lib/translator';

/** The page's translator with every namespace of `lang` loaded (the tests switch languages freely). */
export async function switchLanguage(lang: LanguageCode): Promise<void> {
  for (const ns of [...CORE_NAMESPACES, ...LAZY_NAMESPACES]) {
    if (i18n.hasResourceBundle(lang, ns)) continue;
    const content = await loadBundle(lang, ns);
    if (content) i18n.addResourceBundle(lang, ns, content as Resources);
  }
  i18n.changeLanguage(lang);
}

export function renderWithApp(ui: React.ReactElement): RenderResult & { queryClient: QueryClient } {
  const queryClient = new QueryClient({
    defaultOptions: {
      queries: { queryFn: getQueryFn({ on401: 'throw' }), retry: shouldRetry, refetchOnWindowFocus: false },
      mutations: { retry: shouldRetryMutation },
    },
  });
  const result = render(
    <QueryClientProvider client={queryClient}>
      {ui}
      <Toaster regionLabel="notifications" viewportLabel="notifications" />
    </QueryClientProvider>,
  );
  return { ...result, queryClient };
}
