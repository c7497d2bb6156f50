/**
 * The widget registry (./registry.ts) with the page helpers bound to it: validation and loading of
 * stored pages. The end-user runtime imports ./registry.ts directly, to stay free of the validator.
 */
import { WIDGETS } from './registry.ts';
import { type RestoreResult, restorePage } from './restore.ts';
import { type PageValidator, type ValidationResult, validatorFor } from './validate.ts';

export { getWidget, palette, WIDGETS } from './registry.ts';

/** The validator of this registry, compiled once per process. */
export function pageValidator(): PageValidator {
  return validatorFor(WIDGETS);
}

export function validatePage(doc: unknown): ValidationResult {
  return pageValidator().validatePage(doc);
}

/** Loads a stored page: migrate, sanitise, mark broken widgets. */
export function loadPage(doc: unknown): RestoreResult {
  return restorePage(doc, WIDGETS);
}
