import { describe, expect, it } from 'vitest';
import { treeField, treeRows } from './tree.ts';

const E = 'region-table';
const rows = [
  { _id: 'p', __entity: E, name: 'Province', parent: null, ___parent: null },
  { _id: 'c', __entity: E, name: 'City', parent: 'p', ___parent: { _id: 'p', __entity: E } },
  { _id: 'd', __entity: E, name: 'District', parent: 'c', ___parent: { _id: 'c', __entity: E } },
  { _id: 'x', __entity: E, name: 'Orphan', parent: 'gone', ___parent: null },
];

describe('table tree', () => {
  it('finds the relation to the same table, not one to another table', () => {
    const fields = [
      { key: 'name', name: 'Name' },
      { key: 'owner', name: 'Owner', type: 'relate' },
      { key: 'parent', name: 'Parent', type: 'relate' },
    ];
    const other = rows.map((r) => ({ ...r, owner: 'u', ___owner: { _id: 'u', __entity: 'users' } }));
    expect(treeField(fields, other)).toBe('parent');
    expect(treeField(fields.slice(0, 2), other)).toBeUndefined();
  });

  it('nests rows under their parent; a missing parent or a loop makes a root', () => {
    const tree = treeRows(rows, 'parent');
    expect(tree.map((r) => r._id)).toEqual(['p', 'x']);
    expect(tree[0]?.children?.[0]?._id).toBe('c');
    expect(tree[0]?.children?.[0]?.children?.[0]?._id).toBe('d');
    const loop = treeRows(
      [
        { _id: 'a', parent: 'b' },
        { _id: 'b', parent: 'a' },
      ],
      'parent',
    );
    expect(loop.length).toBeGreaterThan(0);
  });
});
