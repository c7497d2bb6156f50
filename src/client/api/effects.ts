/**
 * What the request wrapper does to the user interface on an error (spec §8). The shell plugs the
 * real implementations in at start; until then nothing is shown, so the module stays usable in tests.
 */
export interface ApiEffects {
  /** Go to a route of the client. */
  navigate(to: string, replace?: boolean): void;
  /** Error notice with the code and message (3 s). */
  notifyError(code: number, msg: string): void;
  /** The "partner feature not yet enabled" modal; returns home when closed. */
  partnerModal(): void;
  /** The quota flag (code 104). */
  setLimited(limited: boolean): void;
  /** More than 50 calls wait (debounced). */
  warnCrowded(): void;
}

const noop = () => {};

export const effects: ApiEffects = {
  navigate: noop,
  notifyError: noop,
  partnerModal: noop,
  setLimited: noop,
  warnCrowded: noop,
};

const waiting: (() => void)[] = [];

/** Whether the shell has plugged its notices in (before it mounts, errors would show nothing). */
export const effectsReady = () => effects.notifyError !== noop;

/** Runs `fn` now when the shell's effects are in, else as soon as they are (errors raised before mount). */
export function afterEffects(fn: () => void): void {
  if (effectsReady()) fn();
  else waiting.push(fn);
}

/** Plug in some or all effects; answers a function restoring the previous ones. */
export function setApiEffects(next: Partial<ApiEffects>): () => void {
  const before = { ...effects };
  Object.assign(effects, next);
  if (effectsReady()) for (const fn of waiting.splice(0)) fn();
  return () => Object.assign(effects, before);
}
