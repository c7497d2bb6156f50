/**
 * Allow-list sanitisers for untrusted builder content, isomorphic (no DOM). HTML is rebuilt tag by tag
 * from an allow-list, so anything not understood is escaped or dropped, never passed through.
 */

// Browsers ignore ASCII control characters and whitespace inside a scheme ("java\tscript:").
// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
const CONTROL = /[\u0000-\u0020\u007f-\u009f]/g;
const SAFE_DATA_IMAGE = /^data:image\/(png|jpe?g|gif|webp);base64,[a-z0-9+/=\s]*$/i;
const SCRIPT_TAG = /<\s*\/?\s*script\b/i;

/** True for http(s), mailto, tel, relative and base64 raster image URLs; false for javascript:, vbscript:, other data:. */
export function isSafeUrl(url: string): boolean {
  const u = url.replace(CONTROL, '').toLowerCase();
  if (u === '') return true;
  const m = /^([a-z][a-z0-9+.-]*):/.exec(u);
  if (!m) return true;
  const scheme = m[1];
  if (scheme === 'http' || scheme === 'https' || scheme === 'mailto' || scheme === 'tel') return true;
  return scheme === 'data' && SAFE_DATA_IMAGE.test(url.trim());
}

/** The URL when safe, otherwise empty text. */
export function safeUrl(url: string): string {
  return isSafeUrl(url) ? url : '';
}

/** True when plain text carries a script tag (refused by the validator, stripped on restore). */
export function hasScriptTag(text: string): boolean {
  return SCRIPT_TAG.test(text);
}

/** Strips script elements (and stray script tags) from plain text. */
export function stripScripts(text: string): string {
  return text
    .replace(/<\s*script\b[\s\S]*?<\s*\/\s*script\s*>/gi, '')
    .replace(/<\s*\/?\s*script\b[^>]*>?/gi, '');
}

const TAGS = new Set(
  'a b blockquote br code div em h1 h2 h3 h4 h5 h6 hr i img li ol p pre s span strong sub sup table tbody td th thead tr u ul'.split(
    ' ',
  ),
);
const VOID = new Set(['br', 'hr', 'img']);
// Elements whose content is dropped with them.
const DROP_CONTENT = new Set([
  'script',
  'style',
  'iframe',
  'object',
  'embed',
  'template',
  'noscript',
  'textarea',
  'title',
  'svg',
  'math',
]);
const ATTRS: Record<string, Set<string>> = {
  '*': new Set(['class', 'title', 'align']),
  a: new Set(['href', 'target', 'rel']),
  img: new Set(['src', 'alt', 'width', 'height']),
  td: new Set(['colspan', 'rowspan']),
  th: new Set(['colspan', 'rowspan']),
};
const URL_ATTRS = new Set(['href', 'src']);
const TAG_RE =
  /^<(\/?)([a-zA-Z][a-zA-Z0-9]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*(\/?)>/;
const ATTR_RE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

const escAttr = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const decode = (s: string) =>
  s
    .replace(/&#x([0-9a-f]+);?/gi, (_, h: string) => String.fromCodePoint(Number.parseInt(h, 16) % 0x110000))
    .replace(/&#(\d+);?/g, (_, d: string) => String.fromCodePoint(Number(d) % 0x110000))
    .replace(/&colon;/gi, ':')
    .replace(/&tab;/gi, '\t')
    .replace(/&newline;/gi, '\n')
    .replace(/&quot;/gi, '"')
    .replace(/&apos;/gi, "'")
    .replace(/&lt;/gi, '<')
    .replace(/&gt;/gi, '>')
    .replace(/&amp;/gi, '&');

function cleanAttrs(tag: string, raw: string): string {
  let out = '';
  for (const m of raw.matchAll(ATTR_RE)) {
    const name = m[1]!.toLowerCase();
    if (!ATTRS['*']!.has(name) && !ATTRS[tag]?.has(name)) continue;
    // Attribute text is decoded once, checked, and re-escaped, so the output is stable under re-sanitising.
    let value = decode(m[2] ?? m[3] ?? m[4] ?? '');
    if (URL_ATTRS.has(name) && !isSafeUrl(value)) continue;
    if (name === 'target') value = value === '_blank' ? '_blank' : '_self';
    out += ` ${name}="${escAttr(value)}"`;
  }
  if (tag === 'a' && out.includes('target="_blank"') && !/ rel="/.test(out))
    out += ' rel="noopener noreferrer"';
  return out;
}

/** Sanitises HTML to the allow-list: safe tags and attributes only, no scripts, handlers or unsafe URLs. */
export function sanitizeHtml(html: string): string {
  let out = '';
  let i = 0;
  const open: string[] = [];
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    const text = lt < 0 ? html.slice(i) : html.slice(i, lt);
    out += text.replace(/>/g, '&gt;');
    if (lt < 0) break;
    i = lt;
    if (html.startsWith('<!--', i)) {
      const end = html.indexOf('-->', i + 4);
      i = end < 0 ? html.length : end + 3;
      continue;
    }
    const m = TAG_RE.exec(html.slice(i));
    if (!m) {
      out += '&lt;';
      i++;
      continue;
    }
    i += m[0].length;
    const closing = m[1] === '/';
    const tag = m[2]!.toLowerCase();
    if (DROP_CONTENT.has(tag)) {
      if (!closing) {
        const close = new RegExp(`<\\s*/\\s*${tag}\\s*>`, 'i').exec(html.slice(i));
        i = close ? i + close.index + close[0].length : html.length;
      }
      continue;
    }
    if (!TAGS.has(tag)) continue;
    if (closing) {
      const at = open.lastIndexOf(tag);
      if (at < 0) continue;
      while (open.length > at) out += `</${open.pop()}>`;
      continue;
    }
    out += `<${tag}${cleanAttrs(tag, m[3] ?? '')}>`;
    if (!VOID.has(tag)) open.push(tag);
  }
  while (open.length) out += `</${open.pop()}>`;
  return out;
}
