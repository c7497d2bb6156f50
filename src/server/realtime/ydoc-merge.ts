// Y document merging for the DocStore and the rooms; yjs is loaded with co-editing's first use, not
// with the server.
import * as Y from 'yjs';

/**
 * Apply stored updates to a fresh document and answer its state. Going through a document (rather
 * than Y.mergeUpdates) garbage-collects deleted content, so snapshots do not grow with history.
 */
export function mergeRows(updates: Uint8Array[]): Uint8Array {
  const doc = new Y.Doc();
  try {
    applyAll(doc, updates, null);
    return Y.encodeStateAsUpdate(doc);
  } finally {
    doc.destroy();
  }
}

/** Apply updates in one transaction; throws on an undecodable update. */
export function applyAll(doc: Y.Doc, updates: Uint8Array[], origin: unknown): void {
  Y.transact(
    doc,
    () => {
      for (const u of updates) Y.applyUpdate(doc, u, origin);
    },
    origin,
  );
}
