/** /display/{id}: a display (a page with the display flag) shown full width in the root layout. */
import PageScreen from './PageScreen.tsx';

export default function DisplayScreen() {
  return <PageScreen display />;
}
