/**
 * The programs bound to a view (a list menu entry's, a table widget's) that the user's role is
 * granted, in the bound order: the view shows them as toolbar buttons. Unknown or ungranted ids are
 * left out (the server checks the grant again when one runs).
 */
import { useEffect, useState } from 'react';
import type { GrantedProgram } from '../../shared/program/index.ts';
import { grantedPrograms } from '../runtime/program-calls.ts';

/** No programs: one list, so an entry without any does not draw its view again on mount. */
const NONE: GrantedProgram[] = [];

export function useGrantedPrograms(project: string | null, bound: readonly string[]): GrantedProgram[] {
  const boundKey = bound.join(',');
  const [programs, setPrograms] = useState<GrantedProgram[]>(NONE);
  useEffect(() => {
    const ids = boundKey ? boundKey.split(',') : [];
    if (!project || !ids.length) {
      setPrograms(NONE);
      return;
    }
    let live = true;
    grantedPrograms(project, true).then(
      (list) => live && setPrograms(ids.flatMap((id) => list.filter((p) => p._id === id))),
      () => live && setPrograms(NONE),
    );
    return () => {
      live = false;
    };
  }, [project, boundKey]);
  return programs;
}
