/** Mounts an echarts chart into a div; echarts is imported lazily here so it never enters the main bundle. */
import { type RefObject, useEffect, useRef } from 'react';

type Chart = { setOption: (o: unknown, notMerge?: boolean) => void; resize: () => void; dispose: () => void };

export function useECharts(option: Record<string, unknown>): RefObject<HTMLDivElement | null> {
  const ref = useRef<HTMLDivElement | null>(null);
  const chart = useRef<Chart | null>(null);
  const json = JSON.stringify(option);

  // The chart is created once; option changes are applied by the effect below.
  // biome-ignore lint/correctness/useExhaustiveDependencies: json changes go through the second effect
  useEffect(() => {
    let disposed = false;
    let observer: ResizeObserver | undefined;
    import('echarts').then((echarts) => {
      if (disposed || !ref.current) return;
      chart.current = echarts.init(ref.current) as unknown as Chart;
      chart.current.setOption(JSON.parse(json), true);
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
  }, []);

  useEffect(() => {
    chart.current?.setOption(JSON.parse(json), true);
  }, [json]);

  return ref;
}
