/**
 * Where the sandbox worker lives on the page: a hidden `<iframe sandbox="allow-scripts">` of the
 * server's sandbox frame (src/shared/sandbox-frame.ts). Its origin is opaque, so Chromium runs it in
 * a process of its own: builder code that eats all memory kills that process, never the page's. The
 * frame's Content-Security-Policy, which its worker inherits, allows no network at all. The page
 * hands the frame the worker's source and a MessagePort; messages then go through the port.
 *
 * To Sandbox this looks like a Worker, plus a `crash` event: the frame answers a ping every
 * FRAME_BEAT_MS from its own thread (builder code busy in the worker does not delay it); a ping left
 * unanswered for CRASH_BEATS beats means the frame's process is gone. Beats, not wall time: a page
 * whose timers are throttled or frozen (a background tab) never mistakes that for a crash.
 */
import { FRAME_START, type FramePortMessage, SANDBOX_FRAME_PATH } from '../../shared/sandbox-frame.ts';
import type { FromWorker, ToWorker } from './sandbox-protocol.ts';

export const FRAME_BEAT_MS = 1000;
export const CRASH_BEATS = 5;

/** What Sandbox needs of its worker (a framed worker, or a fake in tests). */
export interface SandboxWorker {
  postMessage(message: ToWorker): void;
  /** `message` carries `data`; `error` a `message` (uncaught in the worker); `crash` nothing. */
  addEventListener(type: 'message' | 'error' | 'crash', listener: (e: SandboxWorkerEvent) => void): void;
  terminate(): void;
  /**
   * False when the worker's host has left a ping unanswered for a beat or more: asked when a run's
   * time is up, so a crash that happened meanwhile is not told as a time-out. Absent: always true.
   */
  responsive?(): boolean;
}

export interface SandboxWorkerEvent {
  data?: FromWorker;
  message?: string;
  preventDefault?(): void;
}

type EventType = 'message' | 'error' | 'crash';

export class FramedWorker implements SandboxWorker {
  private frame: HTMLIFrameElement | null;
  private readonly port: MessagePort;
  private readonly listeners: Record<EventType, ((e: SandboxWorkerEvent) => void)[]> = {
    message: [],
    error: [],
    crash: [],
  };
  private readonly beat: ReturnType<typeof setInterval>;
  private started = false;
  private sent = 0;
  private answered = 0;
  private missed = 0;

  /** Embeds the frame in `doc` at once; starts the worker when both the frame and `source` are there. */
  constructor(source: Promise<string>, doc: Document = document) {
    const channel = new MessageChannel();
    this.port = channel.port1;
    this.port.onmessage = (e: MessageEvent<FramePortMessage>) => this.receive(e.data);
    const frame = doc.createElement('iframe');
    frame.setAttribute('sandbox', 'allow-scripts');
    frame.setAttribute('aria-hidden', 'true');
    frame.setAttribute('data-lc-sandbox', '');
    frame.tabIndex = -1;
    frame.title = 'sandbox';
    frame.referrerPolicy = 'no-referrer';
    frame.style.display = 'none';
    frame.src = SANDBOX_FRAME_PATH;
    this.frame = frame;
    const loaded = new Promise<void>((resolve) =>
      frame.addEventListener('load', () => resolve(), { once: true }),
    );
    doc.body.append(frame);
    Promise.all([source, loaded]).then(
      ([text]) => {
        if (this.frame !== frame) return;
        // The frame's origin is opaque: '*' is the only target that reaches it. What is sent is our
        // own public code and a port to this sandbox.
        frame.contentWindow?.postMessage({ type: FRAME_START, source: text }, '*', [channel.port2]);
        this.started = true;
      },
      (err: unknown) => this.emit('error', { message: err instanceof Error ? err.message : String(err) }),
    );
    this.beat = setInterval(() => this.check(), FRAME_BEAT_MS);
  }

  postMessage(message: ToWorker): void {
    // Queued in the port until the frame takes its end.
    this.port.postMessage({ w: message } satisfies FramePortMessage);
  }

  addEventListener(type: EventType, listener: (e: SandboxWorkerEvent) => void): void {
    this.listeners[type].push(listener);
  }

  responsive(): boolean {
    return !this.started || this.answered >= this.sent || this.missed === 0;
  }

  /** Removes the frame: its worker ends with it (a new frame is a new process). */
  terminate(): void {
    clearInterval(this.beat);
    this.port.onmessage = null;
    this.port.close();
    this.frame?.remove();
    this.frame = null;
  }

  private emit(type: EventType, e: SandboxWorkerEvent): void {
    if (!this.frame) return;
    for (const l of [...this.listeners[type]]) l(e);
  }

  private receive(m: FramePortMessage): void {
    if (!m || typeof m !== 'object') return;
    if ('w' in m) this.emit('message', { data: m.w as FromWorker });
    else if (m.f === 'pong') this.answered = Math.max(this.answered, m.n);
    else if (m.f === 'error') this.emit('error', { message: m.message, preventDefault() {} });
  }

  /** One beat: ping, or count another beat without an answer; the last one declares a crash. */
  private check(): void {
    if (!this.started || !this.frame) return;
    if (this.answered < this.sent) {
      this.missed += 1;
      if (this.missed >= CRASH_BEATS) {
        this.emit('crash', {});
        this.terminate();
      }
      return;
    }
    this.missed = 0;
    this.port.postMessage({ f: 'ping', n: ++this.sent } satisfies FramePortMessage);
  }
}
