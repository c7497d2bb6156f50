/** A flow document as stored and sent: the spec's `_process` steps and `_option`. */
export interface FlowStep {
  _type: string;
  /** The step's name in `state` (its output) and in traces and errors. */
  _handle: string;
  /** The table a data step works on (id or code). */
  _entity?: string;
  /** The step's settings (its type's schema). */
  _procedure: Record<string, unknown>;
  /** A label shown in the editor. */
  _name?: string;
}

export interface FlowDocument {
  _process: FlowStep[];
  _option: { _entity?: string; [k: string]: unknown };
}

export interface FlowSummary {
  _id: string;
  _type: 'program' | 'dataset';
  _name: string;
  _sort: number;
  _module: string | null;
  _version: number | null;
  _lastVersion: number;
  _updatedAt: number;
}

export interface Flow extends FlowSummary, FlowDocument {}

/** One row a run wrote (or, in a test run, would have written). */
export interface RecordChange {
  step: string;
  entity: string;
  op: 'create' | 'update' | 'remove';
  id: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

export interface TraceEntry {
  step: string;
  type: string;
  ms: number;
  /** The flow the step belongs to, when it is not the program run itself (a call or a trigger). */
  flow?: string;
  /** How many frames deep (0: the program run itself). */
  depth?: number;
  /** The step's output, cut to PROGRAM_LIMITS.traceChars as JSON text. */
  data?: string;
  error?: string;
}

export interface DisplayItem {
  step: string;
  message?: string;
  rows?: Record<string, unknown>[];
}

export interface InputField {
  key: string;
  name: string;
  type: 'string' | 'number' | 'date' | 'boolean' | 'select';
  required?: boolean;
  options?: string[];
}

/** What a run answers. */
export interface RunResult {
  run: string;
  status: 'ok' | 'failed' | 'rolled-back';
  output: unknown;
  display: DisplayItem[];
  changes: RecordChange[];
  /** Tables written (for refreshing widgets bound to them). */
  entities: string[];
  trace: TraceEntry[];
  ms: number;
  /**
   * A record trigger's test run (editor): the write it was run after, made in the same rolled-back
   * transaction; `old` and `new` are what the program got as `params.old` and `params.new`.
   */
  trigger?: TriggerTestWrite;
}

/** The write a record trigger's test run was run after (see RunResult.trigger). */
export interface TriggerTestWrite {
  op: 'create' | 'update' | 'remove';
  entity: string;
  id: string;
  old: Record<string, unknown> | null;
  new: Record<string, unknown> | null;
}

/**
 * What the editor's test run of a record trigger asks for (`POST …/test {trigger}`): the kind of
 * write, the row it changes (update, remove) and the values it writes (create, update).
 */
export interface TriggerTestInput {
  op: 'create' | 'update' | 'remove';
  record?: string;
  values?: Record<string, unknown>;
}

/** What prepare answers: what the client must ask the user before exec. */
export interface PreparedProgram {
  _id: string;
  _name: string;
  _version: number;
  input: InputField[];
  /** The table whose records it runs on (`_option._entity`), if any. */
  _entity?: string | null;
}

/** A program the caller may run (`GET /api/common/program/{p}/init`). */
export interface GrantedProgram {
  _id: string;
  _name: string;
  _version: number;
  /** The table whose records it runs on, if any: list and table buttons act on selected rows. */
  _entity: string | null;
  /** Whether it asks for input before it runs. */
  _input: boolean;
}

/** What an end user's run answers (exec and display). */
export interface ExecAnswer {
  run: string;
  status: 'ok' | 'failed' | 'rolled-back';
  output: unknown;
  display: DisplayItem[];
  entities: string[];
  changed: number;
}

/** One record's run in a bulk run (`records` in the exec body): one run, one transaction per record. */
export interface BulkRunItem {
  record: string;
  run: string | null;
  status: 'ok' | 'failed' | 'rolled-back';
  output?: unknown;
  error?: { code: number; msg: string; step: string | null };
}

export interface BulkAnswer {
  runs: BulkRunItem[];
  ok: number;
  failed: number;
  display: DisplayItem[];
  entities: string[];
  changed: number;
}

export interface RunLogEntry {
  _id: string;
  flow: string;
  version: number | null;
  user: string | null;
  trigger: 'exec' | 'test' | 'display' | 'record' | 'schedule';
  input: unknown;
  status: RunResult['status'];
  errorCode: number | null;
  errorStep: string | null;
  message: string | null;
  ms: number;
  trace: TraceEntry[];
  createdAt: number;
}
