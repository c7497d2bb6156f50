/**
 * The framed worker against the real frame script (src/shared/sandbox-frame.ts), run here with a
 * fake frame window, a fake Worker and Node's MessageChannel: the page embeds a sandboxed frame,
 * hands it the source and a port; messages go both ways wrapped; a frame that stops answering its
 * pings is declared crashed after CRASH_BEATS beats (and removed), one that answers never is.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FRAME_START, SANDBOX_FRAME_PATH, SANDBOX_FRAME_SCRIPT } from '../../shared/sandbox-frame.ts';
import { CRASH_BEATS, FRAME_BEAT_MS, FramedWorker, type SandboxWorkerEvent } from './sandbox-frame.ts';

type Listener = (e: unknown) => void;

/** A Worker inside the fake frame: records what it was started from and given; the test answers. */
class FakeWorker {
  static last: FakeWorker | null = null;
  onmessage: Listener | null = null;
  onerror: Listener | null = null;
  received: unknown[] = [];
  constructor(
    readonly url: string,
    readonly options: unknown,
  ) {
    FakeWorker.last = this;
  }
  postMessage(m: unknown) {
    this.received.push(m);
  }
  say(data: unknown) {
    this.onmessage?.({ data });
  }
}

/** A sandboxed frame: runs the real frame script against a window of its own. */
function fakeFrame() {
  const listeners: Listener[] = [];
  const blobs = new Map<string, string>();
  const ports: MessagePort[] = [];
  const win = {
    postMessage(data: unknown, target: string, transfer: MessagePort[]) {
      expect(target).toBe('*');
      ports.push(...transfer);
      for (const l of listeners) l({ data, ports: transfer, source: parentWindow });
    },
  };
  const parentWindow = {};
  const run = new Function('addEventListener', 'parent', 'URL', 'Blob', 'Worker', SANDBOX_FRAME_SCRIPT);
  run(
    (type: string, l: Listener) => type === 'message' && listeners.push(l),
    parentWindow,
    {
      createObjectURL: (b: { text: string }) => {
        const url = `blob:null/${blobs.size}`;
        blobs.set(url, b.text);
        return url;
      },
      revokeObjectURL: (url: string) => blobs.delete(url),
    },
    class {
      text: string;
      constructor(parts: string[]) {
        this.text = parts.join('');
      }
    },
    FakeWorker,
  );
  return { win, blobs, listeners, ports };
}

/** A document that makes iframes whose window is a fake frame; `load` fires when the test says. */
function fakeDocument() {
  const frames: {
    attrs: Record<string, string>;
    src: string;
    removed: boolean;
    load(): void;
    frame: ReturnType<typeof fakeFrame>;
  }[] = [];
  const doc = {
    createElement: (tag: string) => {
      expect(tag).toBe('iframe');
      const frame = fakeFrame();
      let onLoad: (() => void) | null = null;
      const el = {
        attrs: {} as Record<string, string>,
        style: {} as Record<string, string>,
        src: '',
        tabIndex: 0,
        title: '',
        referrerPolicy: '',
        removed: false,
        contentWindow: frame.win,
        frame,
        setAttribute(k: string, v: string) {
          this.attrs[k] = v;
        },
        addEventListener(type: string, l: () => void) {
          if (type === 'load') onLoad = l;
        },
        remove() {
          this.removed = true;
        },
        load: () => onLoad?.(),
      };
      frames.push(el);
      return el;
    },
    body: { append: () => {} },
  };
  return { doc: doc as unknown as Document, frames };
}

/** Lets the ports deliver (Node delivers MessagePort messages on the event loop). */
const flush = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
};

describe('FramedWorker', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    FakeWorker.last = null;
  });
  afterEach(() => vi.useRealTimers());

  it('embeds a sandboxed frame, starts the worker from the source, relays both ways', async () => {
    const { doc, frames } = fakeDocument();
    const w = new FramedWorker(Promise.resolve('/* worker source */'), doc);
    const got: SandboxWorkerEvent[] = [];
    w.addEventListener('message', (e) => got.push(e));
    const el = frames[0]!;
    expect(el.attrs.sandbox).toBe('allow-scripts');
    expect(el.src).toBe(SANDBOX_FRAME_PATH);
    // Messages posted before the frame is there wait in the port.
    w.postMessage({ type: 'ping', ping: 1 });
    el.load();
    await flush();
    const worker = FakeWorker.last!;
    expect(worker).not.toBeNull();
    expect(el.frame.blobs.size).toBe(1);
    expect([...el.frame.blobs.values()]).toEqual(['/* worker source */']);
    expect(worker.received).toEqual([{ type: 'ping', ping: 1 }]);
    worker.say({ type: 'ready' });
    await flush();
    expect(got.map((e) => e.data)).toEqual([{ type: 'ready' }]);
    // The blob URL goes once the worker spoke.
    expect(el.frame.blobs.size).toBe(0);
    // Builder code cannot pass for the frame: whatever the worker says arrives as a worker message.
    worker.say({ f: 'error', message: 'spoofed' });
    await flush();
    expect(got.at(-1)!.data).toEqual({ f: 'error', message: 'spoofed' });
    w.terminate();
    expect(el.removed).toBe(true);
  });

  it('the frame starts only once, and only for its parent', async () => {
    const frame = fakeFrame();
    const a = new MessageChannel();
    for (const l of frame.listeners)
      l({ data: { type: FRAME_START, source: 'x' }, ports: [a.port2], source: {} });
    expect(FakeWorker.last).toBeNull();
    a.port1.close();
  });

  it('reports an uncaught worker error as an error event', async () => {
    const { doc, frames } = fakeDocument();
    const w = new FramedWorker(Promise.resolve(''), doc);
    const errors: string[] = [];
    w.addEventListener('error', (e) => errors.push(String(e.message)));
    frames[0]!.load();
    await flush();
    FakeWorker.last!.onerror?.({ message: 'boom', preventDefault() {} });
    await flush();
    expect(errors).toEqual(['boom']);
    w.terminate();
  });

  it('declares a crash when the frame stops answering, and removes the frame', async () => {
    const { doc, frames } = fakeDocument();
    const w = new FramedWorker(Promise.resolve(''), doc);
    let crashes = 0;
    w.addEventListener('crash', () => crashes++);
    frames[0]!.load();
    await flush();
    // Alive: many beats, every ping answered.
    for (let i = 0; i < 3 * CRASH_BEATS; i++) {
      vi.advanceTimersByTime(FRAME_BEAT_MS);
      await flush();
    }
    expect(crashes).toBe(0);
    expect(w.responsive()).toBe(true);
    // The frame's process dies: its end of the port goes silent.
    frames[0]!.frame.ports[0]!.close();
    // One beat sends the ping that goes unanswered; CRASH_BEATS more beats without its answer.
    vi.advanceTimersByTime(FRAME_BEAT_MS);
    await flush();
    expect(w.responsive()).toBe(true);
    for (let i = 1; i < CRASH_BEATS; i++) {
      vi.advanceTimersByTime(FRAME_BEAT_MS);
      await flush();
      // A ping left a beat without an answer: a run whose time is up now is told as a crash.
      expect(w.responsive()).toBe(false);
    }
    expect(crashes).toBe(0);
    vi.advanceTimersByTime(FRAME_BEAT_MS);
    await flush();
    expect(crashes).toBe(1);
    expect(frames[0]!.removed).toBe(true);
    // Nothing more after the end.
    vi.advanceTimersByTime(10 * FRAME_BEAT_MS);
    expect(crashes).toBe(1);
  });

  it('never declares a crash while it waits for the frame to load, however long', async () => {
    const { doc, frames } = fakeDocument();
    const w = new FramedWorker(Promise.resolve(''), doc);
    let crashes = 0;
    w.addEventListener('crash', () => crashes++);
    vi.advanceTimersByTime(100 * FRAME_BEAT_MS);
    expect(crashes).toBe(0);
    expect(frames[0]!.removed).toBe(false);
    w.terminate();
  });
});
