import { beforeAll, describe, expect, it } from 'vitest';
import { KEY_PATTERN, keyFromName, loadPinyin } from './field-key.ts';

beforeAll(loadPinyin);

describe('keyFromName', () => {
  it.each([
    ['客户名称', 'kehumingcheng'],
    ['Order date', 'order_date'],
    ['订单2号', 'dingdan2hao'],
    ['  Amount (¥) ', 'amount'],
    ['123 abc', 'abc'],
    ['Café', 'cafe'],
    ['!!!', ''],
  ])('%s → %s', (name, key) => {
    expect(keyFromName(name)).toBe(key);
  });
  it('answers valid keys, at most 32 characters', () => {
    for (const name of ['非常非常非常非常非常非常长的字段名称用于测试', 'a'.repeat(50), '数量 Qty 2']) {
      expect(keyFromName(name)).toMatch(KEY_PATTERN);
    }
  });
});
