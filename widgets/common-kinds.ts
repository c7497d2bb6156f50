/**
 * Part of the registry: the kinds most business pages show (the demo app's, plus the everyday inputs).
 * The runtime starts loading their render code on route match, before the page JSON says which kinds
 * it needs, and the build puts it in the page path's chunk (vite.config.ts). A list of names, not a
 * flag on each definition, on purpose: the build config and the entry bundle read it without loading
 * the registry (every kind's schema). Listing a kind here is optional (a speed hint).
 */
export const COMMON_KINDS = [
  'text',
  'button',
  'number',
  'table',
  'form',
  'image',
  // The everyday inputs of forms and filters.
  'textbox',
  'dropdown',
  'datepicker',
  'checkbox',
  'radio',
  'switch',
] as const;
