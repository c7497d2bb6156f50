/**
 * The step types of programs: for each, the JSON schema of its `_procedure` (validated on the server,
 * and the source of the editor's generated step panel) and what the editor needs to know about it.
 * Fields marked `x-expr` hold an expression (the page binding language) over `params` (the input),
 * `record` (the row the program runs on), `user` (the caller) and `state` (earlier steps' outputs by
 * handle, and variables); `x-template` fields are text with `{{ expr }}` parts; `x-steps` fields hold
 * nested steps. Executors live on the server (src/server/program/steps/), one file per type.
 */
import { HANDLE, PROGRAM_LIMITS } from './limits.ts';

type Schema = Record<string, unknown>;

export interface StepTypeDef {
  type: string;
  title: { zh: string; en: string };
  /** Works on a table named by `_entity`. */
  entity: boolean;
  /** Names of `_procedure` properties holding nested step lists. */
  slots: string[];
  /** May only appear at the top level (input forms are asked before the run). */
  topLevel?: boolean;
  schema: Schema;
}

const expr = (title: string, zh: string, extra: Schema = {}): Schema => ({
  type: 'string',
  maxLength: 2000,
  title,
  'x-zh': zh,
  'x-expr': true,
  ...extra,
});
const template = (title: string, zh: string): Schema => ({
  type: 'string',
  maxLength: 5000,
  title,
  'x-zh': zh,
  'x-template': true,
});
const steps = (title: string, zh: string): Schema => ({
  type: 'array',
  title,
  'x-zh': zh,
  'x-steps': true,
  maxItems: PROGRAM_LIMITS.maxDefinedSteps,
  default: [],
});
const mapping: Schema = {
  type: 'object',
  title: 'Field values',
  'x-zh': '字段赋值',
  'x-mapping': true,
  maxProperties: 200,
  propertyNames: { pattern: '^[A-Za-z][A-Za-z0-9_]{0,63}$' },
  additionalProperties: { type: 'string', maxLength: 2000 },
  default: {},
};
const inputMapping: Schema = { ...mapping, title: 'Input values', 'x-zh': '输入值' };
const ID24 = '^[0-9a-f]{24}$';
const closed = (properties: Record<string, Schema>, required: string[] = []): Schema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

export const STEP_TYPES: readonly StepTypeDef[] = [
  {
    type: 'input',
    title: { zh: '输入表单', en: 'Input form' },
    entity: false,
    slots: [],
    topLevel: true,
    schema: closed(
      {
        fields: {
          type: 'array',
          title: 'Fields',
          'x-zh': '字段',
          maxItems: 50,
          default: [],
          items: closed(
            {
              key: { type: 'string', pattern: HANDLE.source, title: 'Key', 'x-zh': '键' },
              name: { type: 'string', maxLength: 128, title: 'Label', 'x-zh': '名称' },
              type: {
                type: 'string',
                enum: ['string', 'number', 'date', 'boolean', 'select'],
                default: 'string',
                title: 'Type',
                'x-zh': '类型',
              },
              required: { type: 'boolean', default: false, title: 'Required', 'x-zh': '必填' },
              options: {
                type: 'array',
                items: { type: 'string', maxLength: 128 },
                maxItems: 100,
                title: 'Options',
                'x-zh': '选项',
              },
            },
            ['key', 'name', 'type'],
          ),
        },
      },
      ['fields'],
    ),
  },
  {
    type: 'query',
    title: { zh: '查询记录', en: 'Query records' },
    entity: true,
    slots: [],
    schema: closed({
      where: {
        type: 'object',
        title: 'Filter',
        'x-zh': '筛选条件',
        'x-filter': true,
        description: 'A query tree as the data calls take; a value may be {"$expr": "..."}.',
      },
      size: {
        type: 'integer',
        minimum: 1,
        maximum: PROGRAM_LIMITS.maxQueryRows,
        default: 100,
        title: 'At most rows',
        'x-zh': '最多行数',
      },
    }),
  },
  {
    type: 'create',
    title: { zh: '新增记录', en: 'Create record' },
    entity: true,
    slots: [],
    schema: closed({ values: mapping }, ['values']),
  },
  {
    type: 'update',
    title: { zh: '修改记录', en: 'Update record' },
    entity: true,
    slots: [],
    schema: closed({ id: expr('Record id', '记录 ID'), values: mapping }, ['id', 'values']),
  },
  {
    type: 'remove',
    title: { zh: '删除记录', en: 'Remove record' },
    entity: true,
    slots: [],
    schema: closed({ id: expr('Record id', '记录 ID') }, ['id']),
  },
  {
    type: 'set',
    title: { zh: '设置变量', en: 'Set variable' },
    entity: false,
    slots: [],
    schema: closed(
      {
        name: {
          type: 'string',
          pattern: HANDLE.source,
          title: 'Variable (default: the handle)',
          'x-zh': '变量名(默认为步骤标识)',
        },
        value: expr('Value', '值'),
      },
      ['value'],
    ),
  },
  {
    type: 'condition',
    title: { zh: '条件分支', en: 'Condition' },
    entity: false,
    slots: ['yes', 'no'],
    schema: closed({ if: expr('If', '条件'), yes: steps('Then', '满足时'), no: steps('Else', '不满足时') }, [
      'if',
    ]),
  },
  {
    type: 'loop',
    title: { zh: '循环', en: 'Loop over a list' },
    entity: false,
    slots: ['steps'],
    schema: closed(
      {
        over: expr('List', '列表'),
        as: { type: 'string', pattern: HANDLE.source, default: 'item', title: 'Item name', 'x-zh': '元素名' },
        steps: steps('Steps', '循环体'),
      },
      ['over'],
    ),
  },
  {
    type: 'display',
    title: { zh: '显示结果', en: 'Display' },
    entity: false,
    slots: [],
    schema: closed({
      message: template('Message', '消息'),
      rows: expr('Rows', '数据行'),
      fields: {
        type: 'array',
        items: { type: 'string', maxLength: 64 },
        maxItems: 100,
        title: 'Fields shown',
        'x-zh': '显示字段',
      },
    }),
  },
  {
    type: 'notify',
    title: { zh: '发送通知', en: 'Notify' },
    entity: false,
    slots: [],
    schema: closed(
      {
        message: template('Message', '消息'),
        users: expr('Users (list of ids)', '用户(ID 列表)'),
        roles: {
          type: 'array',
          items: { type: 'string', pattern: '^[0-9a-f]{24}$' },
          maxItems: 50,
          title: 'Roles',
          'x-zh': '角色',
        },
      },
      ['message'],
    ),
  },
  {
    type: 'call',
    title: { zh: '调用程序', en: 'Call a program' },
    entity: false,
    slots: [],
    schema: closed(
      {
        program: { type: 'string', pattern: ID24, title: 'Program', 'x-zh': '程序', 'x-program': true },
        data: inputMapping,
        record: expr('Record id (of its table)', '记录 ID(被调用程序的表)'),
      },
      ['program'],
    ),
  },
  {
    type: 'http',
    title: { zh: 'HTTP 请求', en: 'HTTP request' },
    entity: false,
    slots: [],
    schema: closed(
      {
        method: {
          type: 'string',
          enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'],
          default: 'GET',
          title: 'Method',
          'x-zh': '方法',
        },
        url: { ...template('URL', '地址'), maxLength: 2048 },
        headers: {
          type: 'object',
          title: 'Headers',
          'x-zh': '请求头',
          'x-mapping': true,
          maxProperties: 30,
          propertyNames: { pattern: '^[A-Za-z0-9-]{1,64}$' },
          additionalProperties: { type: 'string', maxLength: 2000 },
          default: {},
        },
        body: expr('Body (text, or a value sent as JSON)', '请求体(文本,或以 JSON 发送的值)'),
        wait: {
          type: 'boolean',
          default: false,
          title: 'Wait for the answer (later steps read it; sent during the run)',
          'x-zh': '等待响应(后续步骤可读取;在运行中发送)',
        },
      },
      ['url'],
    ),
  },
  {
    type: 'code',
    title: { zh: '代码', en: 'Code' },
    entity: false,
    slots: [],
    schema: closed(
      {
        source: {
          type: 'string',
          maxLength: PROGRAM_LIMITS.codeMaxChars,
          title: 'Code (JavaScript; api.params, api.record, api.user, api.state; return a value)',
          'x-zh': '代码(JavaScript;api.params、api.record、api.user、api.state;return 返回值)',
          'x-code': true,
        },
      },
      ['source'],
    ),
  },
  {
    type: 'return',
    title: { zh: '结束并返回', en: 'End and return' },
    entity: false,
    slots: [],
    schema: closed({ value: expr('Value', '返回值') }),
  },
];

const byType = new Map(STEP_TYPES.map((s) => [s.type, s]));

/** The definition of a step type, if it is one. */
export function stepType(type: string): StepTypeDef | undefined {
  return byType.get(type);
}
