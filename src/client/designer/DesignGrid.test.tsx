/** The canvas grid draws each cell at its box, sizes itself to its rows, and gives handles to the cells that may resize. */
import { renderToString } from 'react-dom/server';
import { absoluteStrategy } from 'react-grid-layout/core';
import { describe, expect, it } from 'vitest';
import { DesignGrid, GridCell, type GridEvents } from './DesignGrid.tsx';

const events: GridEvents = {
  onDragStop: () => {},
  onResizeStop: () => {},
  dropSize: () => false,
  onDrop: () => {},
};

function grid(opts: { readOnly?: boolean } = {}) {
  return renderToString(
    <DesignGrid
      className="g"
      rows={7}
      width={1200}
      cols={120}
      rowHeight={10}
      strategy={absoluteStrategy}
      readOnly={!!opts.readOnly}
      cancel=".nodrag"
      events={events}
    >
      <GridCell id="a" x={0} y={0} w={20} h={4} locked={false} resizable>
        <div id="cell-a" />
      </GridCell>
      <GridCell id="b" x={30} y={3} w={10} h={4} locked resizable>
        <div id="cell-b" />
      </GridCell>
      <GridCell id="c" x={60} y={1} w={10} h={2} locked={false} resizable={false}>
        <div id="cell-c" />
      </GridCell>
    </DesignGrid>,
  );
}

/** The opening tag of the element with `id`. */
const tagOf = (html: string, id: string) => html.match(new RegExp(`<div[^>]*id="${id}"[^>]*>`))?.[0] ?? '';
const handlesOf = (html: string, id: string) => {
  const from = html.indexOf(`id="${id}"`);
  const next = html.indexOf('id="cell-', from + 1);
  return (html.slice(from, next < 0 ? undefined : next).match(/react-resizable-handle-/g) ?? []).length;
};

describe('DesignGrid', () => {
  it('draws each cell at its box, in pixels of the grid', () => {
    const html = grid();
    // 1200 px over 120 columns: 10 px a column; rows of 10 px.
    expect(tagOf(html, 'cell-a')).toMatch(/top:0px;left:0px;width:200px;height:40px/);
    expect(tagOf(html, 'cell-b')).toMatch(/top:30px;left:300px;width:100px;height:40px/);
    expect(tagOf(html, 'cell-c')).toMatch(/top:10px;left:600px;width:100px;height:20px/);
  });

  it('is as tall as its rows, and no placeholder shows outside a drag', () => {
    const html = grid();
    expect(html).toMatch(/^<div class="react-grid-layout g" style="height:70px"/);
    expect(html).not.toContain('react-grid-placeholder');
  });

  it('gives resize handles to a resizable, unlocked cell only, and marks a locked one static', () => {
    const html = grid();
    expect(handlesOf(html, 'cell-a')).toBe(3);
    expect(handlesOf(html, 'cell-b')).toBe(0);
    expect(handlesOf(html, 'cell-c')).toBe(0);
    expect(tagOf(html, 'cell-b')).toContain('static');
    expect(tagOf(html, 'cell-a')).toContain('react-draggable');
  });

  it('read-only: nothing drags or resizes', () => {
    const html = grid({ readOnly: true });
    expect(handlesOf(html, 'cell-a')).toBe(0);
    expect(tagOf(html, 'cell-a')).not.toMatch(/react-draggable[ "]/);
  });
});
