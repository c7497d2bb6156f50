/**
 * The designer's property panels (the contract the Inspector wires in):
 * - PropertyPanel: one widget's name, props (generated from its schema, or a custom panel) and events.
 *   onChange({ props }) is a shallow merge (a key set to undefined means delete); `events` is the whole map.
 * - PagePanel: the page's title, layout per mode, state, data sources, events and setup.
 * Only values that pass the schemas go out.
 */
export { CodeEditor, CodeEditorModal, SetupScriptEditor } from '../code/index.tsx';
export { PagePanel } from './PagePanel.tsx';
export { PropertyPanel } from './PropertyPanel.tsx';
