/**
 * Validation rules of the spec ("Validation rules"), shared by server and client. Each rule answers
 * undefined when the value is fine, else a message key; `messages` holds the zh and en texts.
 */

export type Lang = 'zh' | 'en';
export type RuleResult = MessageKey | undefined;

export const messages = {
  required: { zh: '不能为空', en: 'cannot be empty' },
  accountFormat: {
    zh: '账号须以字母开头，6-16位字母、数字或下划线',
    en: 'account must start with a letter and have 6-16 letters, digits or underscores',
  },
  passwordFormat: {
    zh: '密码须为6-32位，同时包含数字和字母',
    en: 'password must be 6-32 characters with both digits and letters',
  },
  passwordMismatch: { zh: '两次输入不一致', en: 'the two inputs do not match' },
  passwordSame: { zh: '新密码不能与当前密码相同', en: 'new password must differ from the current one' },
  phoneFormat: { zh: '手机号格式不正确', en: 'phone number format is not valid' },
  codeFormat: { zh: '验证码为6位数字', en: 'verification code must be 6 digits' },
  termsRequired: { zh: '请阅读并同意服务条款', en: 'please agree to the terms' },
  nicknameLength: { zh: '昵称最多12个字符', en: 'nickname is at most 12 characters' },
  notUnique: { zh: '不唯一', en: 'is not unique' },
  formatMismatch: { zh: '格式不匹配', en: 'format does not match' },
  selectNull: { zh: '选择不能为空', en: 'selection cannot be empty' },
} as const;

export type MessageKey = keyof typeof messages;

export function message(key: MessageKey, lang: Lang = 'en'): string {
  return messages[key][lang];
}

const ACCOUNT = /^[A-Za-z][A-Za-z0-9_]{5,15}$/;
const HAS_DIGIT = /\d/;
const HAS_LETTER = /[A-Za-z]/;
// Mainland mobile numbers, or an international number in E.164 form.
const PHONE = /^(?:1[3-9]\d{9}|\+[1-9]\d{7,14})$/;
const CODE = /^\d{6}$/;

export const NICKNAME_MAX = 12;
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 32;

function empty(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
}

export function checkAccount(v: unknown): RuleResult {
  if (empty(v)) return 'required';
  return typeof v === 'string' && ACCOUNT.test(v) ? undefined : 'accountFormat';
}

/** Password for registration, reset and change: 6-32 characters with digits and letters. */
export function checkPassword(v: unknown): RuleResult {
  if (empty(v)) return 'required';
  if (typeof v !== 'string' || v.length < PASSWORD_MIN || v.length > PASSWORD_MAX) return 'passwordFormat';
  return HAS_DIGIT.test(v) && HAS_LETTER.test(v) ? undefined : 'passwordFormat';
}

export function checkRepeat(pwd: unknown, repeat: unknown): RuleResult {
  if (empty(repeat)) return 'required';
  return pwd === repeat ? undefined : 'passwordMismatch';
}

export function checkNewPassword(current: unknown, next: unknown): RuleResult {
  const r = checkPassword(next);
  if (r) return r;
  return current === next ? 'passwordSame' : undefined;
}

export function checkPhone(v: unknown): RuleResult {
  if (empty(v)) return 'required';
  return typeof v === 'string' && PHONE.test(v) ? undefined : 'phoneFormat';
}

export function checkCode(v: unknown): RuleResult {
  if (empty(v)) return 'required';
  return typeof v === 'string' && CODE.test(v) ? undefined : 'codeFormat';
}

export function checkRequired(v: unknown): RuleResult {
  return empty(v) ? 'required' : undefined;
}

export function checkNickname(v: unknown): RuleResult {
  if (empty(v)) return 'required';
  return typeof v === 'string' && [...v.trim()].length <= NICKNAME_MAX ? undefined : 'nicknameLength';
}

export function checkTerms(v: unknown): RuleResult {
  return v === true ? undefined : 'termsRequired';
}

/**
 * The name shown for a user (spec "Entities — User"): weixin_ → 微信用户; mobile_ → 手机用户_ and the
 * last 4 characters; wxwork_ → 企业微信_ and the second part; public_ → empty; else the nickname
 * shortened to 12 characters, falling back to the account.
 */
export function displayName(user: { nickname?: string | null; account?: string | null }): string {
  const raw = (user.nickname || user.account || '').trim();
  if (raw.startsWith('weixin_')) return '微信用户';
  if (raw.startsWith('mobile_')) return `手机用户_${raw.slice(-4)}`;
  if (raw.startsWith('wxwork_')) return `企业微信_${raw.split('_')[1] ?? ''}`;
  if (raw.startsWith('public_')) return '';
  return [...raw].slice(0, NICKNAME_MAX).join('');
}
