/** The phone-width flag, apart from the shell's project hooks so views can use it without them. */
import { useEffect, useState } from 'react';

/** Below this width the menu is a drawer and the toolbar folds into "More". */
export const PHONE_WIDTH = 768;

/**
 * Whether the window is narrower than a phone's width. Right from the first render (no re-render
 * on mount, as antd's breakpoint hook makes), and again on each resize.
 */
export function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(() => window.innerWidth < PHONE_WIDTH);
  useEffect(() => {
    const onResize = () => setNarrow(window.innerWidth < PHONE_WIDTH);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return narrow;
}
