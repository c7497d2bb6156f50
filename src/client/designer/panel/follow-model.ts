/**
 * How the props form follows the page model after a change it did not make (toolbar undo or redo, a
 * co-editor, the JSON editor): which props take the model's value, and which keep what is on screen.
 */

type Props = Record<string, unknown>;

const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * The props whose form value must become the model's, and the rejected edits that this drops.
 * Kept on screen: the prop whose text field has the focus (being typed in: it follows on blur), and
 * an edit the schema refused (`held`: prop → the model value, as JSON, it was typed over) while the
 * model's value of that prop stays what it was; once that value changes (an undo of the prop, a
 * co-editor's edit), the model wins and the refused edit goes.
 */
export function propsToFollow(
  form: Props,
  model: Props,
  held: ReadonlyMap<string, string>,
  focused: string | null,
): { take: string[]; drop: string[] } {
  const take: string[] = [];
  const drop: string[] = [];
  for (const key of new Set([...Object.keys(form), ...Object.keys(model)])) {
    if (key === focused) continue;
    const over = held.get(key);
    if (over !== undefined) {
      if (over === JSON.stringify(model[key] ?? null)) continue;
      drop.push(key);
    }
    if (!same(form[key], model[key])) take.push(key);
  }
  return { take, drop };
}

/** The value the model holds, as `held` records it. */
export const heldOver = (model: Props, key: string) => JSON.stringify(model[key] ?? null);

/**
 * The prop (`data-prop="prop-<key>"`, see BindableField) whose text entry has the focus inside
 * `root`, or null: a switch, a select or a button with the focus is no typing, and follows at once.
 */
export function typingIn(root: HTMLElement | null): string | null {
  const el = typeof document === 'undefined' ? null : (document.activeElement as HTMLElement | null);
  if (!root || !el || !root.contains(el)) return null;
  const text =
    el.isContentEditable ||
    el.tagName === 'TEXTAREA' ||
    (el.tagName === 'INPUT' &&
      !/^(checkbox|radio|button|submit|color|range|file)$/.test((el as HTMLInputElement).type) &&
      // A select's search box is not a typed value of the prop (an expression's completion box is).
      !el.closest('.ant-select:not(.ant-select-auto-complete)'));
  if (!text) return null;
  const prop = el.closest<HTMLElement>('[data-prop]')?.dataset.prop;
  return prop?.startsWith('prop-') ? prop.slice(5) : null;
}
