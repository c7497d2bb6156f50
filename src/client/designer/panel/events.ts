/**
 * Events of a page document. A widget's events are declared by its kind (`events` of its
 * `widgets/<kind>/index.ts`); the action kinds and their fields are in ./action-fields.ts.
 */
export const PAGE_EVENTS: readonly string[] = ['onLoad'];
