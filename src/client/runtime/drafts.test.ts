import { beforeEach, describe, expect, it } from 'vitest';
import { DRAFT_MAX_CHARS, DRAFTS_MAX } from '../../shared/constants.ts';
import { clearDraft, draftsShown, findDraft, listDrafts, saveDraft } from './drafts.ts';

/** Node has no localStorage: an in-memory Storage with the same interface. */
class MemoryStorage {
  private m = new Map<string, string>();
  getItem(k: string) {
    return this.m.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.m.set(k, String(v));
  }
  removeItem(k: string) {
    this.m.delete(k);
  }
}

beforeEach(() => {
  Object.defineProperty(globalThis, 'localStorage', { value: new MemoryStorage(), configurable: true });
});

describe('drafts', () => {
  it('keeps one draft per page and form, newest first, at most 10', () => {
    for (let i = 0; i < 12; i++) expect(saveDraft('p', `f${i}`, { n: i }, 1000 + i)).toBe(true);
    const all = listDrafts();
    expect(all).toHaveLength(DRAFTS_MAX);
    expect(all[0]!.form).toBe('f11');
    expect(findDraft('p', 'f0')).toBeUndefined();
    saveDraft('p', 'f5', { n: 'again' }, 5000);
    expect(listDrafts()).toHaveLength(DRAFTS_MAX);
    expect(listDrafts()[0]).toMatchObject({ form: 'f5', values: { n: 'again' } });
  });

  it('does not save a draft over 102,400 characters', () => {
    expect(saveDraft('p', 'big', { text: 'x'.repeat(DRAFT_MAX_CHARS) })).toBe(false);
    expect(findDraft('p', 'big')).toBeUndefined();
    expect(saveDraft('p', 'ok', { text: 'x'.repeat(DRAFT_MAX_CHARS - 20) })).toBe(true);
  });

  it('clears a draft once the form is sent; shows 1 by default, 8 in debug', () => {
    saveDraft('p', 'f', { a: 1 });
    clearDraft('p', 'f');
    expect(findDraft('p', 'f')).toBeUndefined();
    expect(draftsShown(false)).toBe(1);
    expect(draftsShown(true)).toBe(8);
  });

  it('a damaged store reads as no drafts', () => {
    localStorage.setItem('lc_drafts', '{not json');
    expect(listDrafts()).toEqual([]);
  });
});
