/** Shows the print modal a print action asked for; the modals load only when first used. */
import { lazy, Suspense } from 'react';
import { usePrints } from './print-store.ts';

const PrintRequestModal = lazy(() => import('./PrintModal.tsx'));

export function PrintHost() {
  const request = usePrints((s) => s.request);
  const close = usePrints((s) => s.close);
  if (!request) return null;
  return (
    <Suspense fallback={null}>
      <PrintRequestModal request={request} onClose={close} />
    </Suspense>
  );
}
