/**
 * /app/{project}/print/{page}: a page's print layout. With `?key=…` (a new-window print) it takes the
 * print the key holds, once: page `-` prints that print alone as A4 sheets, a designed page prints
 * with its print widgets showing the print's rows or record, `copies` times. `?pdf=1` (the server's
 * headless Chromium) marks the page ready instead of opening the print dialog.
 */
import { Result, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { PrintDataContext } from '../../../../widgets/kit/print-data.ts';
import type { PrintOption } from '../../../shared/print.ts';
import { ApiError } from '../../api/api-error.ts';
import { takePrint } from '../../print/api.ts';
import { PrintDocument } from '../../print/PrintDocument.tsx';
import { AppPage, markPrintReady } from './AppPageScreen.tsx';

export default function AppPrintScreen() {
  const { project = '', page = '' } = useParams();
  const [search] = useSearchParams();
  const key = search.get('key');
  const pdf = search.get('pdf') === '1';
  const { t } = useTranslation();
  const [print, setPrint] = useState<PrintOption | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!key) return;
    let live = true;
    takePrint(project, key)
      .then((r) => live && setPrint(r.print))
      .catch((e: unknown) => {
        if (!live) return;
        const msg = e instanceof ApiError ? `${e.code}: ${e.message}` : String(e);
        setError(msg);
        markPrintReady(`error ${msg}`);
      });
    return () => {
      live = false;
    };
  }, [project, key]);

  // The plain print document: ready as soon as it is drawn.
  useEffect(() => {
    if (!print || page !== '-') return;
    markPrintReady('1');
    if (!pdf) window.print();
  }, [print, page, pdf]);

  if (!key) return <AppPage print pdf={pdf} />;
  if (error) return <Result status="warning" title={t('print.failed')} subTitle={error} />;
  if (!print)
    return (
      <div style={{ padding: 48, textAlign: 'center' }}>
        <Spin tip={t('print.loading')} />
      </div>
    );
  if (page === '-')
    return (
      <div className="lc-print-doc">
        <PrintDocument option={print} pageLabel={(i, n) => t('print.pageOf', { i, n })} />
      </div>
    );
  return (
    <PrintDataContext.Provider value={print}>
      <AppPage print pdf={pdf} copies={print.copies ?? 1} />
    </PrintDataContext.Provider>
  );
}
