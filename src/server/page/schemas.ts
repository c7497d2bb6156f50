/** Request and answer schemas of the page calls (builder and end-user). */
import { anyObj, bool, id, int, obj, str } from '../http/schemas.ts';

const nullableInt = { type: ['integer', 'null'] };
const issueSchema = obj({
  path: str(),
  message: { type: 'string' },
  'keyword?': str(),
  'widgetId?': str(),
  'kind?': str(),
});
export const summarySchema = obj({
  _id: str(),
  name: str(),
  display: bool(),
  version: nullableInt,
  publishedAt: nullableInt,
  changed: bool(),
  versions: int(),
  createdAt: int(),
  updatedAt: int(),
  updatedBy: { type: ['string', 'null'] },
});
export const draftSchema = {
  ...summarySchema,
  properties: { ...(summarySchema.properties as object), document: anyObj() },
  required: [...(summarySchema.required as string[]), 'document'],
};
export const versionSchema = obj({
  version: int(),
  note: { type: 'string' },
  createdAt: int(),
  createdBy: { type: ['string', 'null'] },
  createdByName: { type: ['string', 'null'] },
  published: bool(),
});
export const appListSchema = obj({
  _id: str(),
  name: str(),
  display: bool(),
  version: int(),
  publishedAt: int(),
});
export const appPageSchema = obj({
  _id: str(),
  name: str(),
  display: bool(),
  version: nullableInt,
  publishedAt: nullableInt,
  preview: bool(),
  document: anyObj(),
  issues: { type: 'array', items: issueSchema },
});
const viewEntry = obj({ id: str(), kind: str(), x: int(), y: int(), w: int(), h: int() });
export const viewSchema = obj({
  vid: str(),
  _id: str(),
  name: str(),
  version: int(),
  pc: { type: 'array', items: viewEntry },
  mobile: { type: 'array', items: viewEntry },
});
export const pageParams = obj({ project: id(), id: id() });
export const pageName = str(128, { minLength: 1 });
