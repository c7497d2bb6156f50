/** The editor's step tree edits: moves across branches, duplicates with fresh handles, scope. */
import { describe, expect, it } from 'vitest';
import type { FlowStep } from '../../shared/program/index.ts';
import { dropResult } from './StepTree.tsx';
import { allHandles, duplicateStep, moveStep, newStep, scopeAt } from './tree.ts';

const set = (h: string): FlowStep => ({ _type: 'set', _handle: h, _procedure: { value: '1' } });
const doc = (): FlowStep[] => [
  {
    _type: 'input',
    _handle: 'input1',
    _procedure: { fields: [{ key: 'qty', name: 'Qty', type: 'number' }] },
  },
  set('a'),
  { _type: 'condition', _handle: 'c', _procedure: { if: 'true', yes: [set('y1')], no: [] } },
  { _type: 'loop', _handle: 'l', _procedure: { over: '[1]', as: 'it', steps: [set('in1')] } },
];
const handles = (l: FlowStep[]) => [...allHandles(l)];

describe('program step tree', () => {
  it('moves a step within a list, into a branch, and out of it', () => {
    const down = moveStep(doc(), [1], [], 3)!;
    expect(down.map((s) => s._handle)).toEqual(['input1', 'c', 'a', 'l']);
    const intoNo = moveStep(doc(), [1], [2, 'no'], 0)!;
    expect(intoNo.map((s) => s._handle)).toEqual(['input1', 'c', 'l']);
    expect((intoNo[1]!._procedure.no as FlowStep[]).map((s) => s._handle)).toEqual(['a']);
    const intoLoop = moveStep(doc(), [2, 'yes', 0], [3, 'steps'], 0)!;
    expect((intoLoop[3]!._procedure.steps as FlowStep[]).map((s) => s._handle)).toEqual(['y1', 'in1']);
    expect(intoLoop[2]!._procedure.yes).toEqual([]);
  });

  it('refuses moving a step into itself and an input step into a branch', () => {
    expect(moveStep(doc(), [2], [2, 'yes'], 0)).toBeNull();
    expect(moveStep(doc(), [0], [2, 'no'], 0)).toBeNull();
  });

  it('drops on a step or on an empty branch', () => {
    const onStep = dropResult(doc(), 's:1', 's:3')!;
    expect(onStep.map((s) => s._handle)).toEqual(['input1', 'c', 'l', 'a']);
    const onEmpty = dropResult(doc(), 's:3/steps/0', 'l:2/no')!;
    expect((onEmpty[2]!._procedure.no as FlowStep[])[0]!._handle).toBe('in1');
  });

  it('duplicates a branch with fresh handles everywhere', () => {
    const d = duplicateStep(doc(), [2]);
    expect(d).toHaveLength(5);
    expect(new Set(handles(d)).size).toBe(handles(d).length);
    expect(d[3]!._type).toBe('condition');
    expect(d[3]!._handle).not.toBe('c');
  });

  it('a new step carries its schema defaults and a fresh handle', () => {
    const s = newStep('update', allHandles(doc()), 'e1');
    expect(s).toMatchObject({
      _type: 'update',
      _handle: 'update1',
      _entity: 'e1',
      _procedure: { id: '', values: {} },
    });
  });

  it('the scope of a step: input, record, user, earlier steps, enclosing loop items', () => {
    const vars = scopeAt(doc(), [3, 'steps', 0], ['amount']).map((v) => v.path);
    expect(vars).toEqual(
      expect.arrayContaining([
        'params.qty',
        'record.amount',
        'user._id',
        'state.a',
        'state.c',
        'state.y1',
        'state.it',
      ]),
    );
    expect(vars).not.toContain('state.l');
    expect(scopeAt(doc(), [1]).map((v) => v.path)).not.toContain('state.c');
  });
});
