import { describe, expect, it } from 'vitest';
import {
  checkAccount,
  checkCode,
  checkNewPassword,
  checkNickname,
  checkPassword,
  checkPhone,
  checkRepeat,
  checkRequired,
  checkTerms,
  displayName,
  type MessageKey,
  message,
  messages,
  type RuleResult,
} from '../../src/shared/validation.ts';

type Case = [label: string, value: unknown, expected: RuleResult];

/** One runner for every single-value rule: a table of (label, value, expected result). */
function rule(name: string, check: (v: unknown) => RuleResult, cases: Case[]): void {
  describe(name, () => {
    it.each(cases)('%s', (_label, value, expected) => {
      expect(check(value)).toBe(expected);
    });
  });
}

rule('checkAccount', checkAccount, [
  ['6 letters', 'abcdef', undefined],
  ['16 characters', 'a234567890123456', undefined],
  ['letters, digits, underscore', 'Ab_c12', undefined],
  ['upper-case start', 'Zzzzzz', undefined],
  ['5 characters', 'abcde', 'accountFormat'],
  ['17 characters', 'a2345678901234567', 'accountFormat'],
  ['starts with a digit', '1abcdef', 'accountFormat'],
  ['starts with underscore', '_abcdef', 'accountFormat'],
  ['hyphen', 'abc-def', 'accountFormat'],
  ['space inside', 'abc def', 'accountFormat'],
  ['leading space', ' abcdef', 'accountFormat'],
  ['trailing newline', 'abcdef\n', 'accountFormat'],
  ['non-ASCII letter', 'ábcdef', 'accountFormat'],
  ['Chinese', '用户用户用户', 'accountFormat'],
  ['empty', '', 'required'],
  ['blank', '   ', 'required'],
  ['undefined', undefined, 'required'],
  ['null', null, 'required'],
  ['number', 1234567, 'accountFormat'],
]);

rule('checkPassword', checkPassword, [
  ['6 with digits and letters', 'abc123', undefined],
  ['32 characters', `a1${'x'.repeat(30)}`, undefined],
  ['symbols allowed beside digits and letters', 'abc12!@#', undefined],
  ['5 characters', 'abc12', 'passwordFormat'],
  ['33 characters', `a1${'x'.repeat(31)}`, 'passwordFormat'],
  ['letters only', 'abcdefgh', 'passwordFormat'],
  ['digits only', '12345678', 'passwordFormat'],
  ['non-ASCII letters and digits', 'пароль12', 'passwordFormat'],
  ['empty', '', 'required'],
  ['blank', '      ', 'required'],
  ['undefined', undefined, 'required'],
  ['number', 12345678, 'passwordFormat'],
]);

rule('checkPhone', checkPhone, [
  ['mainland mobile', '13800138000', undefined],
  ['mainland 19x', '19912345678', undefined],
  ['E.164', '+8613800138000', undefined],
  ['E.164 short', '+12025550123', undefined],
  ['mainland 12x', '12345678901', 'phoneFormat'],
  ['10 digits', '1380013800', 'phoneFormat'],
  ['12 digits', '138001380001', 'phoneFormat'],
  ['letters', '1380013800a', 'phoneFormat'],
  ['plus zero', '+0123456789', 'phoneFormat'],
  ['spaces', '138 0013 8000', 'phoneFormat'],
  ['empty', '', 'required'],
  ['number', 13800138000, 'phoneFormat'],
]);

rule('checkCode', checkCode, [
  ['6 digits', '012345', undefined],
  ['5 digits', '12345', 'codeFormat'],
  ['7 digits', '1234567', 'codeFormat'],
  ['letter', '12345a', 'codeFormat'],
  ['full-width digits', '１２３４５６', 'codeFormat'],
  ['padded', ' 123456', 'codeFormat'],
  ['empty', '', 'required'],
  ['number', 123456, 'codeFormat'],
]);

rule('checkNickname', checkNickname, [
  ['short', 'Bob', undefined],
  ['12 characters', 'abcdefghijkl', undefined],
  ['12 Chinese characters', '一二三四五六七八九十一二', undefined],
  ['12 emoji (astral code points)', '😀'.repeat(12), undefined],
  ['12 after trimming', '  abcdefghijkl  ', undefined],
  ['13 characters', 'abcdefghijklm', 'nicknameLength'],
  ['13 emoji', '😀'.repeat(13), 'nicknameLength'],
  ['empty', '', 'required'],
  ['blank', '  ', 'required'],
  ['number', 5, 'nicknameLength'],
]);

rule('checkRequired', checkRequired, [
  ['text', 'x', undefined],
  ['zero', 0, undefined],
  ['false', false, undefined],
  ['empty', '', 'required'],
  ['blank', ' \t', 'required'],
  ['null', null, 'required'],
  ['undefined', undefined, 'required'],
]);

rule('checkTerms', checkTerms, [
  ['agreed', true, undefined],
  ['not agreed', false, 'termsRequired'],
  ['text true', 'true', 'termsRequired'],
  ['missing', undefined, 'termsRequired'],
]);

describe('checkRepeat', () => {
  it.each([
    ['equal', 'abc123', 'abc123', undefined],
    ['different', 'abc123', 'abc124', 'passwordMismatch'],
    ['case differs', 'abc123', 'ABC123', 'passwordMismatch'],
    ['empty repeat', 'abc123', '', 'required'],
    ['missing repeat', 'abc123', undefined, 'required'],
  ] as const)('%s', (_label, pwd, repeat, expected) => {
    expect(checkRepeat(pwd, repeat)).toBe(expected);
  });
});

describe('checkNewPassword', () => {
  it.each([
    ['different and valid', 'abc123', 'xyz789', undefined],
    ['same as current', 'abc123', 'abc123', 'passwordSame'],
    ['empty', 'abc123', '', 'required'],
    ['invalid format wins over sameness', 'abcdef', 'abcdef', 'passwordFormat'],
    ['too short', 'abc123', 'a1', 'passwordFormat'],
  ] as const)('%s', (_label, current, next, expected) => {
    expect(checkNewPassword(current, next)).toBe(expected);
  });
});

describe('displayName', () => {
  it.each([
    ['weixin_ prefix', { nickname: 'weixin_abc123' }, '微信用户'],
    ['mobile_ prefix shows the last 4', { nickname: 'mobile_13800138000' }, '手机用户_8000'],
    ['wxwork_ prefix shows the second part', { nickname: 'wxwork_corp_user' }, '企业微信_corp'],
    ['public_ prefix is empty', { nickname: 'public_xyz' }, ''],
    ['plain nickname', { nickname: 'Alice' }, 'Alice'],
    ['long nickname is shortened to 12', { nickname: 'abcdefghijklmnop' }, 'abcdefghijkl'],
    ['shortened by code points', { nickname: '😀'.repeat(14) }, '😀'.repeat(12)],
    ['falls back to the account', { nickname: '', account: 'someone' }, 'someone'],
    ['prefix on the account', { nickname: null, account: 'mobile_13900001234' }, '手机用户_1234'],
    ['nothing', {}, ''],
  ])('%s', (_label, user, expected) => {
    expect(displayName(user)).toBe(expected);
  });
});

describe('messages', () => {
  it('every key has zh and en texts', () => {
    for (const key of Object.keys(messages) as MessageKey[]) {
      expect(message(key, 'zh')).toBeTruthy();
      expect(message(key, 'en')).toBeTruthy();
    }
    expect(message('passwordMismatch')).toBe('the two inputs do not match');
  });
});
