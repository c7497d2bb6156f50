/**
 * The page bench:designer drives: `?kind=designer&n=1000` mounts the real designer canvas, inspector
 * and store on a generated page; `?kind=baseline&n=1000` mounts a bare react-grid-layout grid of the
 * same number of plain boxes at the same positions. Both expose the same operations on `window.bench`.
 * `&skip=graph,qrcode` leaves kinds out of the designer's page (to measure what one kind costs; pass
 * it through BENCH_QUERY). `&tools=1` adds what real input needs (the input-to-paint pass): the
 * palette on the left and the designer's keyboard shortcuts; on the baseline, a palette tile, click to
 * select, Delete / Ctrl+D / Ctrl+Z and a name field for the selected box.
 */
import { ConfigProvider } from 'antd';
import { StrictMode, useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { GridLayout, type Layout, noCompactor } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import * as Y from 'yjs';
import { Canvas } from '../../../src/client/designer/Canvas.tsx';
import { Inspector } from '../../../src/client/designer/Inspector.tsx';
import { DocModel } from '../../../src/client/designer/model.ts';
import { Palette } from '../../../src/client/designer/Palette.tsx';
import { useShortcuts } from '../../../src/client/designer/shortcuts.ts';
import { useDesigner } from '../../../src/client/designer/store.ts';
import { WIDGETS } from '../../../widgets/index.ts';
import { emptyPage, instanceOf } from '../../fixtures/pages.ts';
import '../../../src/client/designer/designer.css';
import { initI18n, loadBuilderTexts } from '../../../src/client/i18n/index.ts';
import { ANTD_THEME } from '../../../src/client/shell/Providers.tsx';
import { applyPageToDoc } from '../../../src/shared/page-ydoc.ts';

type Ops = Record<string, (i: number) => void>;
declare global {
  interface Window {
    bench: { ready: () => boolean; ops: Ops; count: () => number };
  }
}

const params = new URLSearchParams(location.search);
const n = Number(params.get('n') ?? 100);
const kind = params.get('kind') ?? 'designer';
const tools = params.get('tools') === '1';
const COLS = 6;
const pos = (i: number) => ({ x: (i % COLS) * 20, y: Math.floor(i / COLS) * 4, w: 20, h: 4 });

function designer() {
  // Leaves only (cycling through the kinds, charts and rich text aside), on a regular grid, so both
  // kinds draw the same rectangles.
  const leafs = WIDGETS.filter(
    (w) =>
      !w.meta.container &&
      !w.kind.startsWith('chart') &&
      w.kind !== 'richtext' &&
      !(params.get('skip') ?? '').split(',').includes(w.kind),
  );
  const page = emptyPage(`bench${n}`);
  page.widgets = Array.from({ length: n }, (_, i) => {
    const inst = instanceOf(leafs[i % leafs.length]!, `w${i}`);
    inst.layout = { pc: pos(i), mobile: pos(i) };
    return inst;
  });
  const doc = new Y.Doc();
  applyPageToDoc(doc, page);
  const model = new DocModel(doc);
  const st = useDesigner.getState();
  st.setModel(model, page.id);
  // Measured at 100 % as before fit to width became the default, so the figures stay comparable.
  st.setZoom(1);
  const ids = () => [...model.children(null)];
  const pick = (i: number) => ids()[(i * 7) % ids().length]!;
  let clip: ReturnType<typeof st.copy>;
  window.bench = {
    ready: () =>
      document.querySelectorAll('.dz-item').length === n &&
      document.querySelectorAll('.dz-loading').length === 0,
    count: () => model.size(),
    ops: {
      select: (i) => useDesigner.getState().select([pick(i)]),
      edit: (i) => {
        const s = useDesigner.getState();
        const id = [...s.selection][0] ?? pick(i);
        s.applyWidgetPatch(id, { name: `name ${i}` });
      },
      move: () => useDesigner.getState().nudge(0, 1),
      delete: (i) => {
        useDesigner.getState().select([pick(i)]);
        useDesigner.getState().remove();
      },
      duplicate: (i) => {
        useDesigner.getState().select([pick(i)]);
        useDesigner.getState().duplicate();
      },
      copy50: (i) => {
        const all = ids();
        const s = useDesigner.getState();
        s.select(all.slice((i * 50) % (all.length - 50), ((i * 50) % (all.length - 50)) + 50));
        clip = s.copy();
      },
      paste50: () => {
        useDesigner.getState().select([]);
        useDesigner.getState().paste(clip);
      },
      undo: () => useDesigner.getState().undo(),
      redo: () => useDesigner.getState().redo(),
    },
  };
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      {/* antd set up as in the app (shell/Providers.tsx): zero-runtime styles, prebuilt CSS per component. */}
      <ConfigProvider theme={ANTD_THEME}>
        <div className="dz-screen" style={{ height: '100vh' }}>
          <div className="dz-body">
            {tools ? (
              <aside className="dz-left">
                <Shortcuts />
                <Palette />
              </aside>
            ) : null}
            <main className="dz-center">
              <Canvas />
            </main>
            {params.get('inspector') === '0' ? null : (
              <aside className="dz-right">
                <Inspector project="" />
              </aside>
            )}
          </div>
        </div>
      </ConfigProvider>
    </StrictMode>,
  );
}

function Shortcuts() {
  useShortcuts();
  return null;
}

type Box = { i: string; x: number; y: number; w: number; h: number; text: string };

interface BaselineState {
  boxes: () => Box[];
  selected: () => string;
  onRender: (f: () => void) => void;
  commit: (next: Box[]) => void;
  /** Real input (`tools=1`): select, delete, duplicate, undo, rename the selected box, drop a new one. */
  input: {
    select: (id: string) => void;
    key: (e: KeyboardEvent) => void;
    rename: (text: string) => void;
    drop: (box: { x: number; y: number; w: number; h: number }) => void;
  };
}

function BaselineTools({ state }: { state: BaselineState }) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.target as HTMLElement).tagName === 'INPUT') return;
      state.input.key(e);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [state]);
  const sel = state.boxes().find((b) => b.i === state.selected());
  return (
    <aside style={{ width: 260, flex: 'none' }}>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: an HTML drag source, as the palette's tiles */}
      <div className="bx-tile" draggable onDragStart={(e) => e.dataTransfer.setData('text/plain', '')}>
        box
      </div>
      <input
        className="bx-name"
        value={sel?.text ?? ''}
        onChange={(e) => state.input.rename(e.target.value)}
      />
    </aside>
  );
}

function BaselineView({ state }: { state: BaselineState }) {
  const [, setTick] = useState(0);
  // Rendered synchronously, so the harness times the whole update as it does the designer's
  // (whose store updates render in a microtask).
  state.onRender(() => flushSync(() => setTick((t) => t + 1)));
  const boxes = state.boxes();
  const selected = state.selected();
  const layout: Layout = boxes.map(({ i, x, y, w, h }) => ({ i, x, y, w, h }));
  const grid = (
    <div style={{ height: '100vh', overflow: 'auto', flex: 1 }}>
      <div className="dz-page" style={{ width: 1200 }}>
        <GridLayout
          width={1200}
          layout={layout}
          gridConfig={{ cols: 120, rowHeight: 10, margin: [0, 0], containerPadding: [0, 0] }}
          compactor={noCompactor}
          autoSize
          dropConfig={{ enabled: tools, defaultItem: { w: 20, h: 4 } }}
          onDrop={(_l, item) => {
            if (item) state.input.drop({ x: item.x, y: item.y, w: item.w, h: item.h });
          }}
          onDragStop={(l) => {
            const byId = new Map(l.map((it) => [it.i, it]));
            state.commit(boxes.map((b) => ({ ...b, ...(byId.get(b.i) ?? {}) })));
          }}
        >
          {boxes.map((b) => (
            // biome-ignore lint/a11y/noStaticElementInteractions: the baseline's boxes are picked by mouse
            // biome-ignore lint/a11y/useKeyWithClickEvents: as above
            <div
              key={b.i}
              data-wid={b.i}
              className={`bx dz-item${b.i === selected ? ' sel' : ''}`}
              onClick={tools ? () => state.input.select(b.i) : undefined}
            >
              {b.text}
            </div>
          ))}
        </GridLayout>
      </div>
    </div>
  );
  return tools ? (
    <div style={{ display: 'flex', height: '100vh' }}>
      <BaselineTools state={state} />
      {grid}
    </div>
  ) : (
    grid
  );
}

/** The baseline: plain boxes in a bare grid, state in React, undo as a stack of layouts. */
function baseline() {
  let boxes: Box[] = Array.from({ length: n }, (_, i) => ({ i: `b${i}`, ...pos(i), text: `box ${i}` }));
  let selected = '';
  const past: Box[][] = [];
  const future: Box[][] = [];
  let render = () => {};
  const commit = (next: Box[]) => {
    past.push(boxes);
    future.length = 0;
    boxes = next;
    render();
  };
  let seq = n;
  let clip: Box[] = [];
  const pick = (i: number) => boxes[(i * 7) % boxes.length]!.i;
  window.bench = {
    ready: () => document.querySelectorAll('.bx').length === n,
    count: () => boxes.length,
    ops: {
      select: (i) => {
        selected = pick(i);
        render();
      },
      edit: (i) =>
        commit(boxes.map((b) => (b.i === (selected || pick(i)) ? { ...b, text: `name ${i}` } : b))),
      move: () => commit(boxes.map((b) => (b.i === selected ? { ...b, y: b.y + 1 } : b))),
      delete: (i) => {
        const id = pick(i);
        commit(boxes.filter((b) => b.i !== id));
      },
      duplicate: (i) => {
        const b = boxes.find((x) => x.i === pick(i))!;
        commit([...boxes, { ...b, i: `b${seq++}`, x: b.x + 2, y: b.y + 2 }]);
      },
      copy50: (i) => {
        const from = (i * 50) % (boxes.length - 50);
        clip = boxes.slice(from, from + 50);
      },
      paste50: () =>
        commit([...boxes, ...clip.map((b) => ({ ...b, i: `b${seq++}`, x: b.x + 2, y: b.y + 2 }))]),
      undo: () => {
        const prev = past.pop();
        if (!prev) return;
        future.push(boxes);
        boxes = prev;
        render();
      },
      redo: () => {
        const next = future.pop();
        if (!next) return;
        past.push(boxes);
        boxes = next;
        render();
      },
    },
  };
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <BaselineView
        state={{
          boxes: () => boxes,
          selected: () => selected,
          onRender: (f) => {
            render = f;
          },
          commit,
          input: {
            select: (id) => {
              selected = id;
              render();
            },
            key: (e) => {
              const mod = e.ctrlKey || e.metaKey;
              if (e.key === 'Delete' && selected) {
                const id = selected;
                selected = '';
                commit(boxes.filter((b) => b.i !== id));
              } else if (mod && e.key === 'd' && selected) {
                e.preventDefault();
                const b = boxes.find((x) => x.i === selected);
                if (!b) return;
                selected = `b${seq++}`;
                commit([...boxes, { ...b, i: selected, x: b.x + 2, y: b.y + 2 }]);
              } else if (mod && e.key === 'z') {
                e.preventDefault();
                window.bench.ops.undo!(0);
              }
            },
            rename: (text) => commit(boxes.map((b) => (b.i === selected ? { ...b, text } : b))),
            drop: (box) => commit([...boxes, { i: `b${seq++}`, ...box, text: 'box' }]),
          },
        }}
      />
    </StrictMode>,
  );
}

if (kind === 'baseline') baseline();
else {
  // The designer's strings load beside its screen in the app (i18n `loadBuilderTexts`): here too.
  initI18n();
  await loadBuilderTexts();
  designer();
}
