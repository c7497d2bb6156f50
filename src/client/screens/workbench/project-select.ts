/** Project selection (builder spec §4): the stored id, else one the user owns, else an admin one, else the first. */
export interface Selectable {
  _id: string;
  _owner: string;
  role: string | null;
}

export function selectProject<T extends Selectable>(
  list: readonly T[],
  storedId: string | null,
  userId: string | null,
): T | null {
  return (
    list.find((p) => p._id === storedId) ??
    list.find((p) => p.role === 'owner' || (userId !== null && p._owner === userId)) ??
    list.find((p) => p.role === 'admin') ??
    list[0] ??
    null
  );
}

/** Owners and admins may enter the workbench (spec §6: role type admin). */
export function canBuild(p: Pick<Selectable, 'role'> | null | undefined): boolean {
  return p?.role === 'owner' || p?.role === 'admin';
}
