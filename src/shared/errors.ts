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
  NOT_READY: def(1007, 503, 'not ready', '服务尚未就绪'),
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
  LOGIN_SLOWED: def(
    1113,
    429,
    'too many failed sign-ins for this account; try again later',
    '该账号登录失败次数过多,请稍后再试',
  ),
  // Projects.
  PROJECT_NOT_FOUND: def(1200, 404, 'project not found', '系统不存在'),
  NOT_MEMBER: def(1201, 403, 'not a member of this project', '您不是该系统的成员'),
  PAGE_NOT_FOUND: def(1202, 404, 'page not found', '页面不存在'),
  // Data model and records.
  ENTITY_NOT_FOUND: def(1400, 404, 'data table not found', '数据表不存在'),
  FIELD_NOT_FOUND: def(1401, 404, 'field not found', '字段不存在'),
  MODULE_NOT_FOUND: def(1402, 404, 'module not found', '模块不存在'),
  CODE_TAKEN: def(1403, 409, 'code already in use', '编码已被使用'),
  CONFIRM_DATA_LOSS: def(1404, 409, 'confirm data loss', '请确认将删除的数据'),
  FIELD_TYPE_FIXED: def(1405, 400, 'a field type cannot change', '字段类型不能修改'),
  RECORD_NOT_FOUND: def(1406, 404, 'record not found', '记录不存在'),
  // Data queries (the message names the offending path, e.g. `query.$and[2].value`).
  QUERY_INVALID: def(1450, 400, 'invalid query', '查询条件不正确'),
  QUERY_TOO_COMPLEX: def(1451, 400, 'query too complex', '查询条件过于复杂'),
  // Spreadsheet import and export.
  IMPORT_NOT_XLSX: def(1460, 400, 'not a valid xlsx file', '不是有效的 xlsx 文件'),
  IMPORT_TOO_LARGE: def(1461, 413, 'file too large', '文件过大'),
  IMPORT_ZIP_BOMB: def(1462, 400, 'file expands too much when unpacked', '文件解压后过大'),
  IMPORT_ROWS: def(1463, 400, 'import failed: some rows are invalid', '导入失败:部分行数据有误'),
  IMPORT_HEADER: def(1464, 400, 'a column cannot be imported', '存在无法导入的列'),
  IMPORT_EMPTY: def(1465, 400, 'no rows to import', '没有可导入的数据'),
  IMPORT_TOO_MANY_ROWS: def(1466, 400, 'too many rows in one import', '单次导入行数过多'),
  EXPORT_TEMPLATE: def(1467, 400, 'invalid export template', '导出模板无效'),
  EXPORT_FIELDS: def(1468, 400, 'invalid export fields', '导出字段无效'),
  UPLOAD_INVALID: def(1469, 400, 'invalid upload', '上传文件无效'),
  UPLOAD_TOO_LARGE: def(1470, 413, 'upload too large', '上传文件过大'),
  // Access: roles, members, menus, invitations.
  ROLE_NOT_FOUND: def(1300, 404, 'role not found', '角色不存在'),
  ROUTE_NOT_FOUND: def(1301, 404, 'menu not found', '菜单不存在'),
  MEMBER_NOT_FOUND: def(1302, 404, 'member not found', '成员不存在'),
  USER_NOT_FOUND: def(1303, 404, 'user not found', '用户不存在'),
  MEMBER_EXISTS: def(1304, 409, 'already a member of this project', '已是该系统成员'),
  OWNER_PROTECTED: def(
    1305,
    403,
    'the project owner cannot be changed this way',
    '不能对系统所有者执行此操作',
  ),
  ROUTE_NO_PROGRAMS: def(
    1306,
    400,
    'directories and custom pages cannot bind functions',
    '目录和自定义页面不能绑定功能',
  ),
  ROUTE_PARENT: def(1307, 400, 'invalid parent menu', '上级菜单无效'),
  INVITE_INVALID: def(1308, 400, 'invitation invalid, closed or expired', '邀请无效、已关闭或已过期'),
  NOT_SUB_USER: def(
    1309,
    403,
    'only sub-users of this project can be managed this way',
    '只能对本系统的子用户执行此操作',
  ),
  GRANT_INVALID: def(1310, 400, 'grant names something not in this project', '授权项不属于该系统'),
  // Role options (apply, enable, reg) acted on: 1320–1329.
  ROLE_CLOSED: def(1320, 403, 'this role is not open for that', '该角色未开放此操作'),
  APPLICATION_NOT_FOUND: def(1321, 404, 'application not found', '申请不存在'),
  APPLICATION_DECIDED: def(1322, 409, 'application already decided', '申请已处理'),
  PAGE_INVALID: def(1203, 400, 'page document invalid', '页面数据校验失败'),
  // Project export and import (1210–1219).
  PACKAGE_INVALID: def(1210, 400, 'project package invalid', '系统导入文件校验失败'),
  PACKAGE_FORMAT: def(1211, 400, 'project package format not supported', '不支持该系统导入文件的格式'),
  // Pages (1600–1619).
  PAGE_NOT_PUBLISHED: def(1600, 404, 'page not published yet', '页面尚未发布'),
  PAGE_TOO_LARGE: def(1601, 413, 'page document too large', '页面数据过大'),
  PAGE_VERSION_NOT_FOUND: def(1602, 404, 'page version not found', '页面版本不存在'),
  DISPLAY_NOT_FOUND: def(1603, 404, 'display not found', '展示页不存在'),
  // Shell and third-party login (1680–1699).
  THIRD_NOT_CONFIGURED: def(
    1680,
    501,
    'messaging-app login is not configured on this server',
    '本服务器未配置第三方登录',
  ),
  // Payment (1750–1769).
  PAYMENT_NOT_CONFIGURED: def(
    1750,
    501,
    'this payment method is not configured on this server',
    '本服务器未配置该支付方式',
  ),
  ORDER_NOT_FOUND: def(1751, 404, 'order not found', '订单不存在'),
  ORDER_PAID: def(1752, 409, 'order already paid', '订单已支付'),
  PAYMENT_GATEWAY: def(1753, 502, 'payment gateway failed', '支付网关请求失败'),
  NOTIFY_INVALID: def(1754, 400, 'payment notification refused', '支付通知无效'),
  ONLY_OWNER_PAYS: def(1755, 403, 'only the project owner can upgrade it', '只有系统所有者可以升级'),
  THIRD_STATE_INVALID: def(
    1681,
    400,
    'sign-in link invalid, expired or already used',
    '登录链接无效、已过期或已使用',
  ),
  THIRD_TOKEN_INVALID: def(
    1682,
    400,
    'sign-in code invalid, expired or already used',
    '登录凭证无效、已过期或已使用',
  ),
  THIRD_PROVIDER: def(1683, 502, 'the messaging app refused the sign-in', '第三方登录失败'),
  // WeChat / WeCom sign-in, bind and JS-SDK (2150–2179).
  THIRD_BIND_TOKEN_INVALID: def(
    2150,
    400,
    'bind code invalid, expired or already used',
    '绑定码无效、已过期或已使用',
  ),
  THIRD_IDENTITY_TAKEN: def(
    2151,
    409,
    'this account is already bound to another user',
    '该账号已绑定其他用户',
  ),
  THIRD_ALREADY_BOUND: def(2152, 409, 'already bound: unbind first', '已绑定,请先解绑'),
  THIRD_NOT_BOUND: def(2153, 404, 'not bound', '尚未绑定'),
  THIRD_LOGIN_DISABLED: def(
    2154,
    403,
    'messaging-app sign-in is off for this project',
    '该系统未开启第三方登录',
  ),
  WXWORK_CORP_UNKNOWN: def(2155, 404, 'this WeCom corp is not configured', '未配置该企业微信'),
  THIRD_URL_INVALID: def(2156, 400, 'page URL invalid', '页面地址无效'),
  THIRD_STATE_FOREIGN: def(2157, 400, 'sign-in started in another browser', '登录请求来自其他浏览器会话'),
  THIRD_LAST_SIGN_IN: def(
    2158,
    409,
    'this is the only way to sign in to this account',
    '这是该账号唯一的登录方式,不能解绑',
  ),
  WXWORK_NOT_MEMBER: def(2159, 403, 'not a member of this WeCom corp', '不是该企业的成员'),
  // Programs (1800–1819): the message names the step or the path at fault.
  PROGRAM_NOT_FOUND: def(1800, 404, 'program not found', '程序不存在'),
  PROGRAM_INVALID: def(1801, 400, 'program invalid', '程序定义无效'),
  PROGRAM_NOT_RELEASED: def(1802, 404, 'program not released yet', '程序尚未发布'),
  PROGRAM_STEP_FAILED: def(
    1803,
    400,
    'program step failed; nothing was changed',
    '程序步骤执行失败,未做任何修改',
  ),
  PROGRAM_LIMIT: def(
    1804,
    400,
    'program run limit reached; nothing was changed',
    '程序运行超出限制,未做任何修改',
  ),
  PROGRAM_INPUT: def(1805, 400, 'program input invalid', '程序输入有误'),
  PROGRAM_VERSION_NOT_FOUND: def(1806, 404, 'program version not found', '程序版本不存在'),
  PROGRAM_CALL_DEPTH: def(
    1807,
    400,
    'programs call or trigger each other too deeply; nothing was changed',
    '程序调用或触发层级过深,未做任何修改',
  ),
  PROGRAM_HTTP_URL: def(
    1808,
    400,
    'an HTTP step needs an absolute http(s) URL',
    'HTTP 步骤需要 http(s) 地址',
  ),
  PROGRAM_HTTP_REFUSED: def(
    1809,
    400,
    'an HTTP step may not reach this address (loopback, private, link-local or metadata)',
    'HTTP 步骤不允许访问此地址(本机、内网、链路本地或元数据地址)',
  ),
  PROGRAM_HTTP_FAILED: def(1810, 502, 'an HTTP step got no answer', 'HTTP 步骤请求失败'),
  PROGRAM_HTTP_TOO_LARGE: def(1811, 413, 'the answer to an HTTP step is too large', 'HTTP 步骤的响应过大'),
  PROGRAM_CODE_ERROR: def(1812, 400, 'a code step threw an error', '代码步骤执行出错'),
  PROGRAM_CODE_LIMIT: def(
    1813,
    400,
    'a code step ran too long or used too much memory; nothing was changed',
    '代码步骤运行超时或内存超限,未做任何修改',
  ),
  PROGRAM_TRIGGER_FAILED: def(
    1814,
    400,
    'a record trigger failed; nothing was changed',
    '记录触发的程序执行失败,未做任何修改',
  ),
  // Datasets (1920–1939): the message names the path at fault.
  DATASET_NOT_FOUND: def(1920, 404, 'dataset not found', '数据集不存在'),
  DATASET_INVALID: def(1921, 400, 'dataset invalid', '数据集定义无效'),
  DATASET_UNKNOWN_FIELD: def(
    1922,
    400,
    'dataset names an unknown field or table',
    '数据集引用了不存在的字段或数据表',
  ),
  DATASET_JOIN_CYCLE: def(1923, 400, 'dataset joins form a cycle', '数据集的关联形成了循环'),
  DATASET_PARAM_INVALID: def(1924, 400, 'dataset parameter invalid', '数据集参数有误'),
  DATASET_NOT_RELEASED: def(1925, 404, 'dataset not released yet', '数据集尚未发布'),
  DATASET_VERSION_NOT_FOUND: def(1926, 404, 'dataset version not found', '数据集版本不存在'),
  DATASET_TOO_COMPLEX: def(1927, 400, 'dataset too complex', '数据集过于复杂'),
  DATASET_BATCH_INVALID: def(1928, 400, 'dataset batch invalid', '数据集批量请求有误'),
  // Scheduled tasks (1900–1919).
  SCHEDULE_NOT_FOUND: def(1900, 404, 'scheduled task not found', '定时任务不存在'),
  SCHEDULE_CRON_INVALID: def(1901, 400, 'the cron expression does not parse', 'cron 表达式格式错误'),
  SCHEDULE_CRON_NEVER: def(1902, 400, 'the cron expression never fires', 'cron 表达式不会再触发'),
  SCHEDULE_FLOW_INPUT: def(
    1903,
    400,
    'the chosen program has an input step; a scheduled program must not ask for input',
    '所选功能包含输入操作,不能用于定时任务',
  ),
  SCHEDULE_QUOTA: def(
    1904,
    403,
    'the number of simultaneously running tasks has reached the version limit; upgrade to increase',
    '同时运行的任务数已达到版本上限,请升级版本',
  ),
  SCHEDULE_FLOW_NOT_FOUND: def(1905, 404, 'the chosen program is not in this project', '所选功能不存在'),
  SCHEDULE_FLOW_NOT_RELEASED: def(1906, 400, 'the chosen program is not released yet', '所选功能尚未发布'),
  SCHEDULE_MODEL: def(1907, 400, 'unknown list: use schedule or job', '未知的列表类型'),
  SCHEDULE_INVALID: def(1908, 400, 'the scheduled task is not valid', '定时任务配置不正确'),
  // Shared key/value service.
  SHARE_NOT_FOUND: def(1700, 404, 'shared item not found', '配置项不存在'),
  SHARE_TOO_LARGE: def(1701, 413, 'shared value too large', '配置内容过大'),
  // Utilities: short links, the remote-image proxy, points of interest, formulas (1850–1869).
  SHORT_URL_INVALID: def(1850, 400, 'only absolute http(s) links can be shortened', '只能缩短 http(s) 链接'),
  SHORT_NOT_FOUND: def(1851, 404, 'short link not found', '短链接不存在'),
  RES_URL_INVALID: def(1852, 400, 'only http(s) image links can be fetched', '只能获取 http(s) 图片链接'),
  RES_ADDRESS_REFUSED: def(
    1853,
    403,
    'that address is not reachable from this server (loopback, private or reserved)',
    '不允许访问该地址(本机、内网或保留地址)',
  ),
  RES_FETCH_FAILED: def(1854, 502, 'the remote resource could not be fetched', '远程资源获取失败'),
  RES_TYPE_REFUSED: def(
    1855,
    415,
    'the remote resource is not an allowed image type',
    '远程资源不是允许的图片类型',
  ),
  RES_TOO_LARGE: def(1856, 413, 'the remote resource is too large', '远程资源过大'),
  LBS_NOT_CONFIGURED: def(
    1857,
    501,
    'this map provider is not configured on this server',
    '本服务器未配置该地图服务',
  ),
  LBS_FAILED: def(1858, 502, 'the map provider did not answer', '地图服务请求失败'),
  FORMULA_INVALID: def(1859, 400, 'the formula does not parse', '公式无法解析'),
  FORMULA_TOO_HEAVY: def(1860, 422, 'the formula needs too much time or memory', '公式计算耗时或内存过大'),
  // Field types beyond the spec's, and uploads (1960-1979).
  FIELD_OPTION_UNKNOWN: def(1960, 400, "value is not in the field's option list", '值不在该字段的选项列表中'),
  FIELD_EMAIL_INVALID: def(1961, 400, 'not a valid email address', '邮箱格式不正确'),
  FIELD_PHONE_INVALID: def(1962, 400, 'not a valid phone number', '电话号码格式不正确'),
  FIELD_URL_INVALID: def(
    1963,
    400,
    'not a valid http(s) link',
    '链接格式不正确(需以 http:// 或 https:// 开头)',
  ),
  FIELD_BOOLEAN_INVALID: def(1964, 400, 'expected yes or no (true or false)', '应为是或否(true 或 false)'),
  FIELD_ATTACHMENT_INVALID: def(
    1965,
    400,
    'expected files uploaded to this project',
    '附件应为上传到本系统的文件',
  ),
  FIELD_OPTIONS_REQUIRED: def(
    1966,
    400,
    'an option field needs a list of options',
    '选项字段需要填写选项列表',
  ),
  UPLOAD_TYPE_MISMATCH: def(
    1967,
    415,
    "the file's content does not match its name or declared type",
    '文件内容与文件名或声明的类型不符',
  ),
  UPLOAD_TYPE_REFUSED: def(
    1968,
    415,
    'executable and script files are not accepted',
    '不接受可执行文件或脚本文件',
  ),
  UPLOAD_FORBIDDEN: def(
    1969,
    403,
    'uploading needs write access to a data table of this project',
    '上传文件需要本系统数据表的写入权限',
  ),
  UPLOAD_STORE_FAILED: def(1970, 502, 'the object store did not accept the file', '对象存储保存文件失败'),
  // End-user data views: saved filters and role default filters (1940–1959).
  VIEW_FILTER_FIELD: def(
    1940,
    400,
    'the saved filter names a field this table does not show you',
    '保存的筛选使用了不存在或不可见的字段',
  ),
  VIEW_FILTER_NOT_FOUND: def(1941, 404, 'saved filter not found', '保存的筛选不存在'),
  VIEW_FILTER_INVALID: def(1942, 400, 'the saved filter is not valid', '保存的筛选无效'),
  VIEW_FILTER_LIMIT: def(1943, 400, 'too many saved filters for this table', '该表保存的筛选过多'),
  VIEW_ROLE_UNKNOWN: def(1944, 404, 'no such role in this project', '项目中没有该角色'),
  // Administration: translations, option sets, auto-numbering (2080–2119).
  TRANSLATE_UNAVAILABLE: def(
    2080,
    503,
    'no translation service is configured on this server',
    '本服务器未配置翻译服务',
  ),
  TRANSLATE_FAILED: def(2081, 502, 'the translation service failed', '翻译服务调用失败'),
  TRANSLATE_LANGUAGE: def(2082, 400, 'unknown language code', '不支持的语言代码'),
  OPTION_SET_NOT_FOUND: def(2083, 404, 'option set not found', '选项集不存在'),
  OPTION_SET_INVALID: def(2084, 400, 'the option set is not valid', '选项集无效'),
  NUMBERING_RULE_NOT_FOUND: def(2085, 404, 'auto-numbering rule not found', '自动编号规则不存在'),
  NUMBERING_RULE_INVALID: def(2086, 400, 'the auto-numbering rule is not valid', '自动编号规则无效'),
  NUMBERING_FIELD_TYPE: def(
    2087,
    400,
    'auto-numbering applies to text fields only',
    '自动编号只能用于文本字段',
  ),
  I18N_INVALID: def(2088, 400, 'the translation map is not valid', '翻译内容无效'),
  TABLE_CONFIG_INVALID: def(2089, 400, 'the table settings are not valid', '数据表设置无效'),
  // Administration: per-table advanced settings of tables and roles (2090–2099).
  ROLE_PROGRAMS_INVALID: def(
    2090,
    400,
    'allowed programs must be released programs of this project',
    '允许的程序必须是本系统已发布的程序',
  ),
  PROGRAM_NOT_ALLOWED_HERE: def(
    2091,
    403,
    'your role may not run this program on this table',
    '您的角色不能在该数据表上运行此程序',
  ),
  INDEX_FIELDS_INVALID: def(
    2092,
    400,
    'an index takes 1 to 3 distinct fields of this table',
    '索引需要该表的 1 到 3 个不同字段',
  ),
  INDEX_EXISTS: def(2093, 409, 'an index on these fields already exists', '这些字段上已有索引'),
  INDEX_LIMIT: def(2094, 400, 'this table has as many indexes as it may have', '该表的索引数量已达上限'),
  ROLE_RECORD_OUTSIDE: def(
    2095,
    403,
    "the record is outside your role's filter of this table",
    '该记录不在您的角色可见范围内',
  ),
  // Data views acting on the table's and the role's settings (2210–2219, helper admin4a).
  ROLE_RECORD_WOULD_LEAVE: def(
    2210,
    403,
    "the record would fall outside your role's filter of this table: nothing was saved",
    '保存后该记录将不在您的角色可见范围内，未保存',
  ),
  // Bulk record writes and managed indexes (2000–2019).
  BULK_ROWS: def(
    2000,
    400,
    'nothing was written: some rows of the list are invalid',
    '未写入:列表中部分行有误',
  ),
  BULK_SIZE: def(2001, 400, 'a list write takes 1 to 1000 rows', '批量写入需 1 至 1000 行'),
  INDEX_NOT_FOUND: def(2002, 404, 'no such managed index on this table', '该表没有这个自动索引'),
  INDEX_INVALID: def(2003, 400, 'the index change is not valid', '索引操作无效'),
  // Rollups: per-group counts and sums kept by the server for recurring summaries (2300–2309, helper rollup).
  ROLLUP_NOT_FOUND: def(2300, 404, 'no such rollup on this table', '该表没有这个汇总表'),
  // Printing (2120–2149): new-window print keys, server-mode PDFs, the desktop print client.
  PRINT_KEY_INVALID: def(
    2120,
    410,
    'this print link is unknown, already used or expired',
    '打印链接不存在、已使用或已过期',
  ),
  PRINT_KEY_TAKEN: def(2121, 409, 'this print key is already in use', '该打印标识已被使用'),
  PRINT_DATA_TOO_LARGE: def(2122, 413, 'the print data is too large', '打印数据过大'),
  PRINT_CHROMIUM_MISSING: def(
    2123,
    501,
    'server-mode printing needs Chromium on the server (install it or set CHROMIUM_PATH)',
    '服务端打印需要在服务器上安装 Chromium(或设置 CHROMIUM_PATH)',
  ),
  PRINT_RENDER_FAILED: def(2124, 502, 'a print page could not be rendered', '打印页面渲染失败'),
  PRINT_BUSY: def(
    2125,
    503,
    'the server is printing too much at once, try again',
    '服务器打印任务过多,请稍后重试',
  ),
  PRINT_PAGE_INVALID: def(
    2126,
    404,
    'the print page is not a published page of this project',
    '打印页面不是本系统已发布的页面',
  ),
  // The playground's sample apps at /playground/{app} (2180–2189).
  PLAYGROUND_UNKNOWN: def(2180, 404, 'no such playground app', '没有这个示例应用'),
  PLAYGROUND_NOT_LOADED: def(
    2181,
    404,
    'this playground app is not loaded in any system you belong to',
    '您加入的系统中没有加载这个示例应用',
  ),
  PLAYGROUND_NO_PAGE: def(
    2182,
    404,
    'this playground app has no page of its own',
    '这个示例应用没有自己的页面',
  ),
  // New projects from the playground's samples (2200–2209).
  SAMPLE_UNKNOWN: def(
    2200,
    404,
    'no such sample app to start a project from',
    '没有这个示例应用可用来创建系统',
  ),
  SAMPLE_COPY_FAILED: def(
    2201,
    500,
    'the sample could not be copied into the new project',
    '示例应用未能复制到新系统中',
  ),
  // Files and the rich-text helper (2127–2139): the object store, `ueditor`.
  UEDITOR_ACTION_UNKNOWN: def(
    2127,
    400,
    'unknown rich-text helper action (config, uploadimage, listimage)',
    '富文本助手不支持该操作(config、uploadimage、listimage)',
  ),
  OBJECT_STORE_FAILED: def(
    2128,
    502,
    'the object store refused or could not be reached',
    '对象存储拒绝请求或无法连接',
  ),
  // Running programs from lists, tables and pages (2040–2059).
  PROGRAM_BULK_LIMIT: def(
    2040,
    400,
    'too many records for one program run (at most 100)',
    '一次运行程序的记录过多（最多 100 条）',
  ),
  PROGRAM_NO_TABLE: def(
    2041,
    400,
    'this program does not run on records of a table',
    '该程序不针对数据表的记录运行',
  ),
  // The editor's test run of a record trigger (2060–2069).
  PROGRAM_TEST_TRIGGER: def(
    2060,
    400,
    'the write to test the trigger with is not valid',
    '用于测试触发器的写入无效',
  ),
  PROGRAM_NOT_TRIGGER: def(
    2061,
    400,
    'this program does not run after this kind of write',
    '该程序不会在这种写入后运行',
  ),
  // Administration area: feature flags and debug mode (2100–2109, helper admin3b).
  FEATURES_INVALID: def(2100, 400, 'the feature flags are not valid', '功能开关设置有误'),
  DEBUG_REFUSED: def(
    2101,
    403,
    'debug mode is not available for this project here',
    '此处不能为该系统开启调试模式',
  ),
  // Administration area: switched-off features refused by the server, debug-call limit (2220–2229, helper admin4b).
  FEATURE_OFF: def(
    2220,
    403,
    'this feature is switched off for this system (/system/features)',
    '该功能已在本系统关闭(系统设置 › 功能开关)',
  ),
  DEBUG_RATE_LIMITED: def(
    2221,
    429,
    'too many debug-mode requests for this system, try again in a minute',
    '开启调试模式的请求过于频繁,请一分钟后再试',
  ),
  // Datasets in the end user's data view: statistics over the whole filtered set (2260–2269, helper vdata).
  DATASET_SUMMARY_GROUPED: def(
    2260,
    400,
    'dataset statistics have no groups: the dataset groups its own rows',
    '数据集统计不支持分组:分组由数据集自身定义',
  ),
} as const satisfies Record<string, ErrorDef>;

export type ErrorName = keyof typeof E;

const byCode = new Map<number, ErrorDef>(Object.values(E).map((e) => [e.code, e]));

/** The definition for a code, if it is one of ours. */
export function errorByCode(code: number): ErrorDef | undefined {
  return byCode.get(code);
}
