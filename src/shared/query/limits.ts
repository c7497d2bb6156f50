/** Bounds on untrusted queries; anything beyond them is refused with QUERY_TOO_COMPLEX. */
export const QUERY_LIMITS = {
  /** Nesting of $and/$or groups (the top group is depth 1). */
  maxDepth: 8,
  /** Leaf clauses in the whole query, counted before any are dropped. */
  maxClauses: 200,
  /** Characters in any one string value or field name. */
  maxString: 1000,
  /** Ids in one `set` list. */
  maxSetSize: 1000,
  /** Sort keys. */
  maxSort: 10,
  /** Highest page index accepted. */
  maxPageIndex: 1_000_000,
  /** Calendar years accepted for date values (keeps every instant inside what Date and SQL hold). */
  minYear: 1000,
  maxYear: 9999,
} as const;

/** Field names become column references server-side: identifier-like and short, nothing else. */
export const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
