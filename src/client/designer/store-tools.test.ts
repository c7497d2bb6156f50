/** The designer store's zoom to fit, and the commands behind the toolbar's and context menu's actions. */
import { describe, expect, it } from 'vitest';
import { emptyPage, instanceOf } from '../../../tests/fixtures/pages.ts';
import { getWidget } from '../../../widgets/index.ts';
import { docFromPage } from '../../shared/page-ydoc.ts';
import { DocModel } from './model.ts';
import { fitZoom, useDesigner } from './store.ts';

const text = getWidget('text')!;

function open() {
  const page = emptyPage();
  page.widgets = [instanceOf(text, 'a'), instanceOf(text, 'b', 6), instanceOf(text, 'c', 12)];
  const doc = docFromPage(page);
  const model = new DocModel(doc);
  useDesigner.getState().setModel(model, 'page1');
  return { doc, model };
}

describe('zoom to fit the width', () => {
  it('fits the page into the canvas area, never above 100 % nor below 25 %', () => {
    // 1280 × 800: the canvas area left between the side panels, a page 1,200 px wide.
    expect(fitZoom(672, 1200)).toBe(0.56);
    expect(fitZoom(2000, 1200)).toBe(1);
    expect(fitZoom(672, 375)).toBe(1);
    expect(fitZoom(100, 1200)).toBe(0.25);
    expect(fitZoom(0, 1200)).toBe(1);
    expect(fitZoom(Number.NaN, 1200)).toBe(1);
  });

  it('is on when a page opens; a picked zoom turns it off until asked again', () => {
    const st = useDesigner.getState();
    st.setZoom(1.5);
    open();
    expect(useDesigner.getState().zoomFit).toBe(true);
    st.setFitZoom(0.56);
    expect(useDesigner.getState().zoom).toBe(0.56);
    // 100 % (Ctrl+0, the value button) and the − / + steps are the user's choice: the fit stops.
    st.setZoom(1);
    expect(useDesigner.getState()).toMatchObject({ zoom: 1, zoomFit: false });
    st.setFitZoom(0.7);
    expect(useDesigner.getState().zoom).toBe(1);
    st.zoomToFit();
    st.setFitZoom(0.7);
    expect(useDesigner.getState().zoom).toBe(0.7);
    st.zoomBy(1);
    expect(useDesigner.getState()).toMatchObject({ zoom: 0.75, zoomFit: false });
  });
});
