/**
 * Mounts an echarts chart into a div; echarts (the parts the kinds use, ./echarts.ts) is imported
 * lazily here so it never enters the main bundle.
 */
import { type RefObject, useEffect, useRef } from 'react';
import { useRuntime } from './widget-context.ts';

type Chart = { setOption: (o: unknown, notMerge?: boolean) => void; resize: () => void; dispose: () => void };

export function useECharts(option: Record<string, unknown>): RefObject<HTMLDivElement | null> {
  const ref = useRef<HTMLDivElement | null>(null);
  // The designer draws charts as SVG: every <canvas> is a composited layer of its own, and it forces
  // each widget painted above it on a page of hundreds into a layer too, so every frame of the canvas
  // (a drag step, an edit) paid for them. The runtime keeps canvas (large series draw faster there).
  const renderer = useRuntime().mode === 'design' ? 'svg' : 'canvas';
  const chart = useRef<Chart | null>(null);
  const json = JSON.stringify(option);
  // The latest option: data may arrive before echarts has loaded, and init must draw that, not the first.
  const latest = useRef(json);
  latest.current = json;

  // The chart is created once; option changes are applied by the effect below.
  useEffect(() => {
    let disposed = false;
    let observer: ResizeObserver | undefined;
    import('./echarts.ts').then((echarts) => {
      if (disposed || !ref.current) return;
      chart.current = echarts.init(ref.current, undefined, { renderer }) as unknown as Chart;
      chart.current.setOption(JSON.parse(latest.current), true);
      if (typeof ResizeObserver !== 'undefined') {
        observer = new ResizeObserver(() => chart.current?.resize());
        observer.observe(ref.current);
      }
    });
    return () => {
      disposed = true;
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, [renderer]);

  useEffect(() => {
    chart.current?.setOption(JSON.parse(json), true);
  }, [json]);

  return ref;
}
