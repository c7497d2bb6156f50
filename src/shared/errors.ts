/**
 * The one coded error registry. Server answers `{ error: code, msg }`; the client maps codes to
 * behaviour (102 queue, 104 limit, 105 partner modal, others a notice with code and message).
 */
export interface ErrorDef {
  code: number;
  status: number;
  msg: string;
  zh: string;
}

function def(code: number, status: number, msg: string, zh: string): ErrorDef {
  return { code, status, msg, zh };
}

export const E = {
  INTERNAL: def(1, 500, 'internal error', '服务器内部错误'),
  // Spec codes.
  QUEUE: def(102, 200, 'queued', '排队中'),
  LIMIT: def(104, 403, 'limit reached', '已达到版本限制'),
  PARTNER: def(105, 403, 'partner feature not yet enabled', '合作伙伴功能尚未开通'),
  // Requests.
  BAD_REQUEST: def(1000, 400, 'invalid request', '请求参数错误'),
  MALFORMED: def(1001, 400, 'malformed request body', '请求体格式错误'),
  TOO_LARGE: def(1002, 413, 'request body too large', '请求体过大'),
  NOT_FOUND: def(1003, 404, 'not found', '未找到'),
  ENVELOPE: def(1004, 400, 'invalid envelope', '请求解密失败'),
  RATE_LIMITED: def(1005, 429, 'too many requests', '请求错误,请求过于频繁'),
  METHOD: def(1006, 405, 'method not allowed', '不支持的请求方法'),
  // Authentication and accounts.
  AUTH_REQUIRED: def(1100, 401, 'sign-in required', '请先登录'),
  TOKEN_INVALID: def(1101, 401, 'token invalid or expired', '登录已失效'),
  FORBIDDEN: def(1102, 403, 'permission denied', '没有权限'),
  BANNED: def(1103, 403, 'account disabled', '账号已被禁用'),
  LOGIN_FAILED: def(1104, 400, 'wrong account or password', '账号或密码错误'),
  ACCOUNT_TAKEN: def(1105, 409, 'account already exists', '账号已存在'),
  PHONE_TAKEN: def(1106, 409, 'phone already registered', '手机号已注册'),
  VERIFY_WRONG: def(1107, 400, 'verification code wrong or expired', '验证码错误或已过期'),
  CAPTCHA_WRONG: def(1108, 400, 'captcha wrong or expired', '图形验证码错误或已过期'),
  CODE_TOO_SOON: def(1109, 429, 'verification code sent too recently', '验证码发送过于频繁'),
  PASSWORD_SAME: def(1110, 400, 'new password must differ from the current one', '新密码不能与当前密码相同'),
  PASSWORD_WRONG: def(1111, 400, 'current password wrong', '登录密码错误'),
  INVALID_FIELD: def(1112, 400, 'format does not match', '格式不匹配'),
  // Projects.
  PROJECT_NOT_FOUND: def(1200, 404, 'project not found', '系统不存在'),
  NOT_MEMBER: def(1201, 403, 'not a member of this project', '您不是该系统的成员'),
  PAGE_NOT_FOUND: def(1202, 404, 'page not found', '页面不存在'),
  PAGE_INVALID: def(1203, 400, 'page document invalid', '页面数据校验失败'),
} as const satisfies Record<string, ErrorDef>;

export type ErrorName = keyof typeof E;

const byCode = new Map<number, ErrorDef>(Object.values(E).map((e) => [e.code, e]));

/** The definition for a code, if it is one of ours. */
export function errorByCode(code: number): ErrorDef | undefined {
  return byCode.get(code);
}
