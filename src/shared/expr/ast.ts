/** Syntax tree of a parsed expression. Plain data, so a parse can be cached and shared. */
export type Node =
  | { t: 'lit'; value: unknown }
  | { t: 'ident'; name: string; pos: number }
  | { t: 'member'; obj: Node; prop: Node; optional: boolean; pos: number }
  | { t: 'call'; name: string; args: Node[]; pos: number }
  | { t: 'unary'; op: '!' | '-' | '+'; arg: Node; pos: number }
  | { t: 'binary'; op: string; left: Node; right: Node; pos: number }
  | { t: 'cond'; test: Node; then: Node; else: Node }
  | { t: 'array'; items: Node[] };
