/**
 * One reload for one change. A save is heard by several listeners at once — this tab's record-change
 * bus, the page that holds the view, the socket channel's project room and, on a live page, its page
 * room — and each asks the view to load again. Quiet (live) reloads asked within `windowMs` of the
 * first are one load (spec: table data refresh throttle 100 ms); a reload the user asked for (the
 * refresh button, a page's refreshWidget) loads at once and takes a waiting quiet one along, since it
 * is sent after the change it was told of.
 */
export interface ReloadGate {
  request(quiet: boolean): void;
  /** Drops a waiting reload (the view is gone). */
  cancel(): void;
}

export function createReloadGate(windowMs: number, fire: (quiet: boolean) => void): ReloadGate {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const cancel = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };
  return {
    request(quiet) {
      if (!quiet) {
        cancel();
        fire(false);
        return;
      }
      if (timer !== null) return;
      timer = setTimeout(() => {
        timer = null;
        fire(true);
      }, windowMs);
    },
    cancel,
  };
}
