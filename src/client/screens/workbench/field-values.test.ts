import { describe, expect, it } from 'vitest';
import { localDayToStored, storedDayToLocal } from './field-values.ts';

describe('date fields between the project zone and the browser zone', () => {
  it('shows a stored Beijing day as the same calendar day, and stores a picked day as its Beijing start', () => {
    // 2024-01-01 00:00 in Asia/Shanghai is 2023-12-31 16:00 UTC.
    const stored = Date.UTC(2023, 11, 31, 16);
    const local = storedDayToLocal(stored);
    expect([local.getFullYear(), local.getMonth() + 1, local.getDate()]).toEqual([2024, 1, 1]);
    expect(localDayToStored(new Date(2024, 0, 1, 15, 30))).toBe(stored);
    expect(localDayToStored(storedDayToLocal(stored))).toBe(stored);
  });
});

describe('end-user table dates', () => {
  it('shows the stored day and time of the project zone', async () => {
    const { dateText } = await import('../../../../widgets/kit/table-columns.ts');
    expect(dateText(Date.UTC(2023, 11, 31, 16), 'date')).toBe('2024-01-01');
    expect(dateText(Date.UTC(2023, 11, 31, 17, 5), 'time')).toBe('2024-01-01 01:05');
    expect(dateText('', 'date')).toBe('');
  });
});
