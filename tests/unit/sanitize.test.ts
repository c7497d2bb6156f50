import { describe, expect, it } from 'vitest';
import { hasScriptTag, isSafeUrl, sanitizeHtml, stripScripts } from '../../src/shared/sanitize.ts';

describe('isSafeUrl', () => {
  it.each([
    ['https://example.com/a?b=1', true],
    ['http://x', true],
    ['/relative/path', true],
    ['#anchor', true],
    ['mailto:a@b.c', true],
    ['tel:+8610', true],
    ['', true],
    ['data:image/png;base64,iVBORw0KGgo=', true],
    ['javascript:alert(1)', false],
    ['JaVaScRiPt:alert(1)', false],
    [' java\tscript:alert(1)', false],
    ['\u0001javascript:alert(1)', false],
    ['vbscript:msgbox', false],
    ['data:text/html,<script>alert(1)</script>', false],
    ['data:image/svg+xml;base64,PHN2Zz4=', false],
  ])('%j → %s', (url, ok) => {
    expect(isSafeUrl(url)).toBe(ok);
  });
});

describe('sanitizeHtml', () => {
  it.each([
    ['<p>hello <b>world</b></p>', '<p>hello <b>world</b></p>'],
    ['<script>alert(1)</script><p>x</p>', '<p>x</p>'],
    ['<SCRIPT SRC=//evil.js></SCRIPT>ok', 'ok'],
    ['<img src=x onerror=alert(1)>', '<img src="x">'],
    ['<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="jav&#x61;script:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="java&#115;cript&colon;alert(1)">x</a>', '<a>x</a>'],
    [
      '<a href="https://ok" target="_blank">x</a>',
      '<a href="https://ok" target="_blank" rel="noopener noreferrer">x</a>',
    ],
    ['<iframe src="https://x"></iframe>after', 'after'],
    ['<style>body{display:none}</style>t', 't'],
    ['<svg onload=alert(1)><circle/></svg>z', 'z'],
    ['<div style="background:url(javascript:x)">d</div>', '<div>d</div>'],
    ['<!-- <script>x</script> -->c', 'c'],
    ['a < b > c', 'a &lt; b &gt; c'],
    ['<p>unclosed <b>bold', '<p>unclosed <b>bold</b></p>'],
    ['</p>stray close', 'stray close'],
    ['<p title="a&quot;b" onclick="x">q</p>', '<p title="a&quot;b">q</p>'],
    ['<scr<script>ipt>alert(1)</script>', '&lt;scr'],
    ['<img src="x" <script>', '<img src="x">'],
  ])('%j', (input, out) => {
    expect(sanitizeHtml(input)).toBe(out);
  });

  it('is idempotent on its own output', () => {
    const samples = ['<p onclick=1>a<script>b</script></p>', '<a href=https://x target=_blank>l</a>', 'x<y'];
    for (const s of samples) expect(sanitizeHtml(sanitizeHtml(s))).toBe(sanitizeHtml(s));
  });
});

describe('script tags in plain text', () => {
  it('detects and strips', () => {
    expect(hasScriptTag('hello')).toBe(false);
    expect(hasScriptTag('a < script b')).toBe(true);
    expect(hasScriptTag('< /script>')).toBe(true);
    expect(stripScripts('a<script>x()</script>b<script src=y>')).toBe('ab');
  });
});
