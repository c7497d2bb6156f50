/**
 * Fields that name an option set (shared/admin/option-sets.ts) get the set's current list in their
 * `_option.info.list` as the client reads them, so pickers, cells and form checks offer what the
 * server accepts. The sets come through the batched share read.
 */

import { optionSetOf, readOptionSet, SELECTION_MODEL, withSetList } from '../../shared/admin/option-sets.ts';
import type { Field } from '../../shared/api/fields.ts';
import { fetchShare } from './share.ts';

export async function withSetLists(project: string, fields: Field[]): Promise<Field[]> {
  if (!fields.some((f) => optionSetOf(f._option))) return fields;
  return Promise.all(
    fields.map(async (f) => {
      const key = optionSetOf(f._option);
      if (!key) return f;
      const set = readOptionSet(
        await fetchShare(project, { model: SELECTION_MODEL, type: 'project', key }).catch(() => null),
      );
      return { ...f, _option: withSetList(f._option, set) };
    }),
  );
}
