/**
 * What actions act on: the host supplies every effect (navigation, the modal stack, programs, forms,
 * notices, the sandbox), so actions stay plain code that a recording host can test.
 */
import type { ExprScope } from '../../../shared/expr/index.ts';
import type { PrintOption } from '../../../shared/print.ts';

export type NoticeLevel = 'success' | 'error' | 'info' | 'warning';

export interface ModalRequest {
  page: string;
  params: Record<string, unknown>;
  title?: string;
  width: number;
  /** Replace the whole stack instead of stacking on top. */
  single?: boolean;
  /** Called with the result when the modal closes (by closeModal, its close button, or a reset). */
  onClose?: (result: unknown) => void;
}

/** The effects actions may have. */
export interface ActionHost {
  /** The scope expressions see now (read again before each action, so earlier actions show). */
  scope(): ExprScope;
  openPage(page: string, params: Record<string, unknown>, target: 'self' | 'blank'): void;
  openModal(req: ModalRequest): void;
  closeModal(result: unknown): void;
  navigate(url: string, replace: boolean): void;
  runProgram(program: string, params: Record<string, unknown>): Promise<unknown>;
  refreshWidget(widget: string): Promise<void> | void;
  setValue(target: string, value: unknown): void;
  /** Saves the form widget's values; `values` when the form itself fired the event. */
  submitForm(form: string, values?: Record<string, unknown>): Promise<void>;
  notify(level: NoticeLevel, message: string, title?: string): void;
  runCode(code: string): Promise<void>;
  /** Opens a print modal (absent where nothing can print, e.g. tests' hosts). */
  print?(req: { option: PrintOption; template?: string }): void;
}

/** One action of an event's list, as stored (schemas/events.schema.json `definitions/action`). */
export interface Action {
  type: string;
  when?: unknown;
  [k: string]: unknown;
}

/** A failed action; its message is what the error notice shows. */
export class ActionError extends Error {
  constructor(
    message: string,
    readonly action: string,
  ) {
    super(message);
  }
}
