/**
 * /app/{project}/{page} and /app/{project}/print/{page}: a published page of the named project
 * (signed-in users). The first is a menu page entry's route (rule 9), drawn in the shell's frame
 * (`?o_w_full=1` shows it alone, for embedding); the print variant stands alone, drops the page
 * chrome and opens the print dialog once the page has painted. Further pages open under /app too.
 */
import { useEffect, useMemo } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { ModalStack, PageView, useProjectSetup } from '../../runtime/PageView.tsx';
import { pageParams, useViewMode } from './view-mode.ts';

/** Tells whoever waits (the server's headless Chromium) that the print page is drawn, or why not. */
export function markPrintReady(state: string): void {
  document.documentElement.dataset.printReady = state;
}

export function AppPage({
  print,
  pdf = false,
  copies = 1,
}: {
  print: boolean;
  pdf?: boolean;
  copies?: number;
}) {
  const { project = '', page = '' } = useParams();
  const [search] = useSearchParams();
  const mode = useViewMode(search);
  const key = search.toString();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the query string is the params' identity
  const params = useMemo(() => pageParams(search), [key]);
  useProjectSetup(project);
  useEffect(() => {
    if (!print) return;
    // Print once the page has painted all its widgets (those below the first screen draw just
    // after it) and its data widgets have their rows: settled on two checks in a row (a widget
    // starts loading in the effect after its first paint).
    let settled = 0;
    const timer = setInterval(() => {
      const painted = document.querySelector('.lc-page [data-wid]');
      const loading = document.querySelector('.lc-page[data-busy="1"], .lc-page [data-deferred]');
      settled = painted && !loading ? settled + 1 : 0;
      if (settled >= 2) {
        clearInterval(timer);
        markPrintReady('1');
        if (!pdf) window.print();
      }
    }, 300);
    return () => clearInterval(timer);
  }, [print, pdf]);
  const copyKeys = Array.from({ length: Math.max(1, copies) }, (_, i) => `copy-${i + 1}`);
  return (
    <div className={print ? 'lc-app-page lc-print' : 'lc-app-page'}>
      {copyKeys.map((k) => (
        <div key={k} className={copyKeys.length > 1 ? 'lc-print-copy' : undefined}>
          <PageView
            key={`${project}/${page}`}
            project={project}
            pageId={page}
            mode={mode}
            params={params}
            standalone
          />
        </div>
      ))}
      <ModalStack standalone />
    </div>
  );
}

export default function AppPageScreen() {
  return <AppPage print={false} />;
}
