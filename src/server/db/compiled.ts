/**
 * Statements compiled once per shape. Kysely builds and compiles a query on every call (its operation
 * tree, then the visitor that prints it), which costs more than running a short statement on SQLite.
 * A hot call site names its statement's shape (`key`: what the SQL text depends on) and the values
 * it binds, in order; the first call builds the query with Kysely and keeps its text, later calls send
 * the text with their own values. The text is kept only when the compiled parameters are exactly the
 * values given, in the order given (else the query is built every time, as before). Per dialect: keyed
 * on the Kysely adapter, which a database's transactions share. Not an async function: it hands back
 * the statement's own promise (a failing build throws to the caller, which awaits it).
 */
import {
  type Compilable,
  CompiledQuery,
  type DatabaseConnection,
  type QueryExecutorProvider,
  type QueryResult,
} from 'kysely';

/** A kept shape: its compiled text and query node (shared by every call; only the values differ). */
type Kept = Pick<CompiledQuery, 'sql' | 'query' | 'queryId'>;
const shapes = new WeakMap<object, Map<string, Kept | null>>();
const MAX_SHAPES = 2000;

/**
 * Transactions whose kept statements go straight to their connection (`bindConnection`). Kysely
 * sends a statement of a transaction through five layers of async functions (an executor made per
 * statement, the transaction's still-open check, the single-connection queue, the plugins' result
 * pass); a program run sends its kept statements one after another on its own connection, so they
 * skip those layers. Bound only while the transaction's body runs (`unbindConnection` after it).
 */
const bound = new WeakMap<object, DatabaseConnection>();

/**
 * Sends `trx`'s kept statements (compiledOnce) straight to its connection until `unbindConnection`.
 * Only for a transaction whose statements are sent one at a time (a program run), on a database with
 * no Kysely plugins (ours has none: a plugin's result pass would be skipped).
 */
export async function bindConnection(trx: QueryExecutorProvider & { isTransaction: boolean }): Promise<void> {
  if (!trx.isTransaction || trx.getExecutor().plugins.length) return;
  const conn = await trx.getExecutor().provideConnection(async (c) => c);
  bound.set(trx, conn);
}

export function unbindConnection(trx: object): void {
  bound.delete(trx);
}

export function compiledOnce<R>(
  db: QueryExecutorProvider & { executeQuery<O>(q: CompiledQuery<O>): Promise<QueryResult<O>> },
  key: string,
  params: readonly unknown[],
  build: () => Compilable<R>,
): Promise<QueryResult<R>> {
  const adapter = db.getExecutor().adapter;
  let kept = shapes.get(adapter);
  if (!kept) {
    kept = new Map();
    shapes.set(adapter, kept);
  }
  const shape = kept.get(key);
  if (shape) {
    const q: CompiledQuery<R> = {
      sql: shape.sql,
      query: shape.query,
      queryId: shape.queryId,
      parameters: params,
    } as CompiledQuery<R>;
    const conn = bound.get(db);
    return conn ? conn.executeQuery<R>(q) : db.executeQuery<R>(q);
  }
  const compiled = build().compile();
  if (shape === undefined) {
    const same =
      compiled.parameters.length === params.length && compiled.parameters.every((v, i) => v === params[i]);
    if (kept.size >= MAX_SHAPES) kept.delete(kept.keys().next().value as string);
    const raw = CompiledQuery.raw(compiled.sql);
    kept.set(key, same ? { sql: raw.sql, query: raw.query, queryId: raw.queryId } : null);
  }
  return db.executeQuery<R>(compiled);
}
