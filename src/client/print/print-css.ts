/**
 * The print document's styles, in one string: drawn in the modal's preview, in the print window, and
 * sent inside the HTML the desktop print client turns into a PDF. While `html.lc-printing` is set, a
 * browser print shows only the print root.
 */
export const PRINT_CSS = `
.lcp-doc{font:12px/1.5 "Noto Sans CJK SC","Microsoft YaHei",Arial,sans-serif;color:#000}
.lcp-sheet{background:#fff;box-sizing:border-box;padding:10mm 8mm;width:100%}
.lcp-title{font-size:18px;font-weight:600;text-align:center;margin:0 0 4px}
.lcp-info{text-align:center;color:#333;margin:0 0 8px}
.lcp-table{width:100%;border-collapse:collapse}
.lcp-table th,.lcp-table td{border:1px solid #000;padding:3px 6px;text-align:left;vertical-align:top;word-break:break-word}
.lcp-table th{background:#f0f0f0}
.lcp-form{display:grid;border:1px solid #000}
.lcp-cell{border:1px solid #000;padding:4px 6px;word-break:break-word}
.lcp-label{font-weight:600;margin-right:4px}
.lcp-foot{margin-top:6px;text-align:right;font-size:11px;color:#333}
@media screen{
  .lcp-preview .lcp-sheet{border:1px solid #d9d9d9;box-shadow:0 1px 4px rgba(0,0,0,.12);margin:0 auto 12px;max-width:794px}
  .lcp-print-root{display:none}
}
@media print{
  @page{size:A4;margin:10mm}
  .lcp-sheet{padding:0;break-after:page;page-break-after:always}
  .lcp-sheet:last-child{break-after:auto;page-break-after:auto}
  html.lc-printing body>*:not(.lcp-print-root){display:none!important}
  html.lc-printing .lcp-print-root{display:block}
}
`;
