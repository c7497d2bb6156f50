import { AppPage } from './AppPageScreen.tsx';

export default function AppPrintScreen() {
  return <AppPage print />;
}
