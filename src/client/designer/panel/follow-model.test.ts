/** The props form follows the model after outside changes, keeping only what is being typed or was refused. */
import { describe, expect, it } from 'vitest';
import { heldOver, propsToFollow } from './follow-model.ts';

const none = new Map<string, string>();

describe('propsToFollow', () => {
  it('an undone edit goes back into the form (the bug: it stayed until the widget was picked again)', () => {
    // The form shows what was typed and accepted; the undo put the old text back in the model.
    const r = propsToFollow({ text: 'Typed', size: 2 }, { text: 'Hello', size: 2 }, none, null);
    expect(r).toEqual({ take: ['text'], drop: [] });
  });

  it('a redo, a co-editor or the JSON editor: every changed prop, added and removed ones too', () => {
    const r = propsToFollow({ a: 1, b: [1, 2], gone: 'x' }, { a: 1, b: [1, 3], added: true }, none, null);
    expect(r.take.sort()).toEqual(['added', 'b', 'gone']);
  });

  it('objects are compared by value (a new view of the widget carries fresh copies)', () => {
    expect(propsToFollow({ s: { field: 'a' } }, { s: { field: 'a' } }, none, null).take).toEqual([]);
  });

  it('the text field being typed in keeps its text; the others follow', () => {
    const r = propsToFollow({ text: 'Typing', title: 'T' }, { text: 'Theirs', title: 'U' }, none, 'text');
    expect(r.take).toEqual(['title']);
  });

  it('a refused edit stays while its prop is unchanged in the model, and goes when it changes', () => {
    const model = { size: 2, text: 'Hello' };
    const held = new Map([['size', heldOver(model, 'size')]]);
    // Another prop changes (an undo of the text): the refused size stays on screen with its error.
    expect(propsToFollow({ size: 'huge', text: 'Typed' }, model, held, null)).toEqual({
      take: ['text'],
      drop: [],
    });
    // The size itself changes in the model: the model wins, the refused edit is dropped.
    expect(propsToFollow({ size: 'huge', text: 'Hello' }, { ...model, size: 3 }, held, null)).toEqual({
      take: ['size'],
      drop: ['size'],
    });
  });

  it('a refused edit typed over a missing prop is held as null', () => {
    const held = new Map([['extra', heldOver({}, 'extra')]]);
    expect(propsToFollow({ extra: -1 }, {}, held, null)).toEqual({ take: [], drop: [] });
  });
});
