/** Limits of flows and program runs: one home, read by the server engine, the editor and tests. */
export const PROGRAM_LIMITS = {
  /** Steps in one flow document, counting nested ones. */
  maxDefinedSteps: 200,
  /** Nesting of branches and loops. */
  maxNesting: 8,
  /** Steps executed in one run (loop bodies count every time). */
  maxExecutedSteps: 5000,
  /** Iterations of one loop step. */
  maxLoopIterations: 1000,
  /** Frames of one run: the program, the programs it calls, the programs record writes trigger. */
  maxDepth: 6,
  /** Wall time and memory of one code step (QuickJS). */
  codeTimeoutMs: 1000,
  codeMemoryBytes: 32 * 1024 * 1024,
  /** Characters of one code step's source. */
  codeMaxChars: 20_000,
  /** Wall time of one run. */
  maxRunMs: 10_000,
  /** Rows one query step reads. */
  maxQueryRows: 1000,
  /** JSON size of a run's answer (output, displays). */
  maxOutputBytes: 1_000_000,
  /** JSON size of one flow document. */
  maxDocumentBytes: 500_000,
  /** Characters of step data kept per step in the run trace. */
  traceChars: 2000,
  /** Runs kept per flow in the log, and their age. */
  logKeepRuns: 500,
  /** Records in one bulk run (a list's or table's selected rows): one run per record. */
  bulkRecords: 100,
  logKeepMs: 30 * 24 * 3600_000,
} as const;

/** A step handle names the step's output in `state`: a short identifier. */
export const HANDLE = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
