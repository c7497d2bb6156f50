import { describe, expect, it } from 'vitest';
import { dateFormat } from './date-format.ts';

describe('dateFormat', () => {
  it('makes one formatter per language and options, in the language', () => {
    const a = dateFormat('en', { dateStyle: 'medium' });
    expect(dateFormat('en', { dateStyle: 'medium' })).toBe(a);
    expect(dateFormat('en', { dateStyle: 'short' })).not.toBe(a);
    expect(a.resolvedOptions().locale).toBe('en-GB');
    expect(dateFormat('zh', { dateStyle: 'medium' }).resolvedOptions().locale).toBe('zh-CN');
    expect(dateFormat('zh', { dateStyle: 'medium' }).format(Date.UTC(2026, 10, 28, 12))).toContain('2026');
  });
});
