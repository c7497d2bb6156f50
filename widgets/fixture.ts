/**
 * Test support (never imported by app code): what `events.test.tsx` needs to make a kind fire each
 * event it declares. A kind whose events a generic pass of clicks, typing and submits cannot reach (a
 * drag, a prop that must be set first) adds `widgets/<kind>/fixture.ts` exporting one `KindFixture`.
 */
import type { Props } from './define.ts';
import type { WidgetData, WidgetRuntime } from './kit/widget-context.ts';

/** DOM gestures, each run inside React's act() and awaited until the page settles. */
export interface Gestures {
  click(el: Element): Promise<void>;
  /** Types a value into an input or textarea (input and change events). */
  type(el: Element, value: string): Promise<void>;
  /** A key press (keydown, keyup) with a KeyboardEvent `code`, e.g. 'Space', 'ArrowRight'. */
  key(el: Element, code: string): Promise<void>;
  /** Waits for timers and promises (debounces, async validation). */
  settle(ms?: number): Promise<void>;
}

export interface KindFixture {
  /** Props over the kind's defaults. */
  props?: Props;
  /** The widget's data (else a sample table of two rows, fields name / amount / city). */
  data?: WidgetData;
  /** Runtime members beyond the test's (e.g. `saveRecords` for a board that saves moves). */
  runtime?: Partial<WidgetRuntime>;
  /** Gestures beyond the generic pass, on the widget's root element. */
  drive?(root: HTMLElement, g: Gestures): Promise<void>;
}
