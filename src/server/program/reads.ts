/**
 * Which step outputs a flow reads: a create or update step whose record no expression of the flow
 * looks at need not read the row back (in an end user's run; test runs always show it). Worked out
 * once per document (released documents are cached, so once per released version).
 */
import type { FlowDocument, FlowStep } from '../../shared/program/index.ts';

interface Reads {
  /** A code step or a bare `state` sees every output. */
  all: boolean;
  texts: string[];
  /** Handles already answered. */
  handles: Map<string, boolean>;
}

const cache = new WeakMap<FlowDocument, Reads>();
const BARE_STATE = /\bstate\b(?!\s*(?:\.|\[|\?\.))/;

function collect(v: unknown, out: string[]): void {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) collect(x, out);
  else if (v && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) if (k !== '_handle' && k !== '_type') collect(x, out);
}

function readsOf(doc: FlowDocument): Reads {
  let r = cache.get(doc);
  if (r) return r;
  const texts: string[] = [];
  let all = false;
  const walk = (list: FlowStep[]) => {
    for (const s of list) {
      if (s._type === 'code') all = true;
      collect(s._procedure, texts);
      for (const v of Object.values(s._procedure))
        if (Array.isArray(v) && v.every((x) => x && typeof x === 'object' && '_type' in x))
          walk(v as FlowStep[]);
    }
  };
  walk(doc._process);
  if (texts.some((t) => BARE_STATE.test(t))) all = true;
  r = { all, texts, handles: new Map() };
  cache.set(doc, r);
  return r;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether any expression of the flow may read the output of the step with this handle (kept per document). */
export function outputRead(doc: FlowDocument, handle: string): boolean {
  const r = readsOf(doc);
  if (r.all) return true;
  let known = r.handles.get(handle);
  if (known === undefined) {
    const h = escapeRe(handle);
    const re = new RegExp(`state\\s*(?:\\?\\.|\\.)\\s*${h}\\b|state\\s*\\[\\s*['"]${h}['"]\\s*\\]`);
    known = r.texts.some((t) => re.test(t));
    r.handles.set(handle, known);
  }
  return known;
}
