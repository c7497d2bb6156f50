/**
 * The print modals (runtime spec: an A4 print modal of width 810, a template print modal of width 400
 * with no footer), used by the data views and the runtime's print action. The A4 modal previews the
 * print as sheets and prints it in this window, in a new window (a single-use key) or through the
 * desktop print client; the template modal prints through a designed print page.
 */
import { App, Button, Collapse, InputNumber, Modal, Segmented, Space, Switch, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { MODAL_WIDTHS } from '../../shared/constants.ts';
import { PRINT_COPIES_MAX, type PrintOption } from '../../shared/print.ts';
import { saveBlob } from '../api/xlsx.ts';
import { preparePrint, printSheetsPdf } from './api.ts';
import { PrintDocument, printHtml } from './PrintDocument.tsx';
import { PrintClientUnreachable, sendToPrintClient } from './print-client.ts';
import { printClientSettings, rememberPrintOption, savePrintClientSettings } from './print-settings.ts';
import type { PrintRequest } from './print-store.ts';

function usePageLabel() {
  const { t } = useTranslation();
  return (i: number, n: number) => t('print.pageOf', { i, n });
}

/** Asks the user to open the print client (spec: "print client unreachable" alert). */
function useClientPrint() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  return async (title: string, html: string, copies: number, landscape?: boolean) => {
    const { port } = printClientSettings();
    try {
      const r = await sendToPrintClient(port, { title, html, copies, ...(landscape ? { landscape } : {}) });
      message.success(t('print.clientDone', { where: r.job ?? r.file ?? '' }));
    } catch (e) {
      if (e instanceof PrintClientUnreachable)
        modal.error({ title: t('print.clientUnreachable'), content: t('print.clientOpen', { port }) });
      else message.error(e instanceof Error ? e.message : String(e));
    }
  };
}

/** The A4 print modal (810 wide). */
export function PrintModal(props: { project: string; option: PrintOption; onClose(): void }) {
  const { t } = useTranslation();
  const pageLabel = usePageLabel();
  const clientPrint = useClientPrint();
  const [option, setOption] = useState<PrintOption>(props.option);
  const [client, setClient] = useState(printClientSettings);
  const [printing, setPrinting] = useState(false);
  const [busy, setBusy] = useState(false);
  const preview = useRef<HTMLDivElement>(null);
  const [root] = useState(() => {
    const el = document.createElement('div');
    el.className = 'lcp-print-root';
    return el;
  });
  const isTable = Array.isArray(option.data);
  const title = option.title ?? '';
  const patch = (p: Partial<PrintOption>) => setOption((o) => ({ ...o, ...p }));

  useEffect(() => {
    document.body.appendChild(root);
    return () => {
      root.remove();
      document.documentElement.classList.remove('lc-printing');
    };
  }, [root]);

  useEffect(() => {
    if (!printing) return;
    const html = document.documentElement;
    const done = () => {
      html.classList.remove('lc-printing');
      setPrinting(false);
    };
    html.classList.add('lc-printing');
    window.addEventListener('afterprint', done, { once: true });
    window.print();
    return () => window.removeEventListener('afterprint', done);
  }, [printing]);

  const printHere = () => {
    rememberPrintOption(option);
    setPrinting(true);
  };
  const newWindow = async () => {
    rememberPrintOption(option);
    setBusy(true);
    try {
      const { url } = await preparePrint(props.project, '', option);
      window.open(url, '_blank');
    } finally {
      setBusy(false);
    }
  };
  const viaClient = async () => {
    rememberPrintOption(option);
    const body = preview.current?.innerHTML ?? '';
    setBusy(true);
    try {
      // One copy in the HTML: the client prints `copies` of it.
      await clientPrint(title, printHtml(title, body), option.copies ?? 1, option.landscape);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      width={MODAL_WIDTHS.a4}
      title={t('print.title', { name: title })}
      onCancel={props.onClose}
      className="lcp-modal"
      footer={[
        <Button key="close" onClick={props.onClose}>
          {t('common.close')}
        </Button>,
        <Button key="window" onClick={newWindow} loading={busy} data-testid="print-window">
          {t('print.newWindow')}
        </Button>,
        client.enabled ? (
          <Button key="client" onClick={viaClient} loading={busy} data-testid="print-client">
            {t('print.viaClient')}
          </Button>
        ) : null,
        <Button key="print" type="primary" data-testid="print-now" onClick={printHere}>
          {t('print.now')}
        </Button>,
      ]}
    >
      <Space wrap style={{ marginBottom: 12 }} data-testid="print-controls">
        {isTable ? (
          <span>
            {t('print.rows')}{' '}
            <InputNumber
              size="small"
              min={5}
              max={100}
              value={option.rows ?? 25}
              onChange={(v) => patch({ rows: v ?? 25 })}
              data-testid="print-rows"
            />
          </span>
        ) : (
          <span>
            {t('print.columns')}{' '}
            <Segmented
              size="small"
              value={option.columns ?? 2}
              options={[2, 3, 4]}
              onChange={(v) => patch({ columns: Number(v) })}
              data-testid="print-columns"
            />
          </span>
        )}
        <span>
          {t('print.copies')}{' '}
          <InputNumber
            size="small"
            min={1}
            max={PRINT_COPIES_MAX}
            value={option.copies ?? 1}
            onChange={(v) => patch({ copies: v ?? 1 })}
            data-testid="print-copies"
          />
        </span>
      </Space>
      <Collapse
        size="small"
        style={{ marginBottom: 12 }}
        items={[
          {
            key: 'client',
            label: t('print.clientSettings'),
            children: (
              <Space wrap>
                <Switch
                  checked={client.enabled}
                  data-testid="print-client-enabled"
                  onChange={(enabled) => {
                    const s = { ...client, enabled };
                    savePrintClientSettings(s);
                    setClient(s);
                  }}
                />
                <span>{t('print.clientEnabled')}</span>
                <span>
                  {t('print.port')}{' '}
                  <InputNumber
                    size="small"
                    min={1024}
                    max={65535}
                    value={client.port}
                    onChange={(v) => {
                      const s = { ...client, port: v ?? client.port };
                      savePrintClientSettings(s);
                      setClient(s);
                    }}
                  />
                </span>
                <Typography.Text type="secondary">{t('print.clientHint')}</Typography.Text>
              </Space>
            ),
          },
        ]}
      />
      <div className="lcp-scroll" ref={preview} data-testid="print-area">
        <PrintDocument option={{ ...option, copies: 1 }} pageLabel={pageLabel} preview />
      </div>
      {printing ? createPortal(<PrintDocument option={option} pageLabel={pageLabel} />, root) : null}
    </Modal>
  );
}

/** The template print modal (400 wide, no footer): print through a designed print page. */
export function TemplatePrintModal(props: {
  project: string;
  option: PrintOption;
  template: string;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const [copies, setCopies] = useState(props.option.copies ?? 1);
  const [busy, setBusy] = useState<string | null>(null);
  const option = { ...props.option, copies };
  const run = async (what: string, f: () => Promise<void>) => {
    rememberPrintOption(option);
    setBusy(what);
    try {
      await f();
    } finally {
      setBusy(null);
    }
  };
  return (
    <Modal
      open
      width={MODAL_WIDTHS.template}
      title={t('print.template', { name: props.option.title ?? '' })}
      onCancel={props.onClose}
      footer={null}
      className="lcp-template-modal"
    >
      <Space direction="vertical" style={{ width: '100%' }} data-testid="print-template">
        <span>
          {t('print.copies')}{' '}
          <InputNumber
            size="small"
            min={1}
            max={PRINT_COPIES_MAX}
            value={copies}
            onChange={(v) => setCopies(v ?? 1)}
          />
        </span>
        <Button
          block
          type="primary"
          loading={busy === 'window'}
          data-testid="print-template-window"
          onClick={() =>
            run('window', async () => {
              const { url } = await preparePrint(props.project, props.template, option);
              window.open(url, '_blank');
            })
          }
        >
          {t('print.newWindow')}
        </Button>
        <Button
          block
          loading={busy === 'pdf'}
          data-testid="print-template-pdf"
          onClick={() =>
            run('pdf', async () => {
              const pdf = await printSheetsPdf(props.project, [{ page: props.template, print: option }], {
                name: option.title || 'print',
              });
              saveBlob(pdf, `${option.title || 'print'}.pdf`);
            })
          }
        >
          {t('print.pdf')}
        </Button>
      </Space>
    </Modal>
  );
}

/** The modal a print request asks for (lazy-loaded by PrintHost). */
export default function PrintRequestModal(props: { request: PrintRequest; onClose(): void }) {
  const r = props.request;
  return r.template ? (
    <TemplatePrintModal project={r.project} option={r.option} template={r.template} onClose={props.onClose} />
  ) : (
    <PrintModal project={r.project} option={r.option} onClose={props.onClose} />
  );
}
