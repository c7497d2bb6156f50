import { useCallback, useEffect, useState } from 'react';
import { api } from '../../api/account.ts';

/** A captcha image and its ticket; `refresh` fetches a new one (each ticket is single use). */
export function useCaptcha(): { ticket: string | undefined; img: string | undefined; refresh: () => void } {
  const [state, setState] = useState<{ ticket?: string; img?: string }>({});
  const refresh = useCallback(() => {
    api.captcha().then(setState, () => setState({}));
  }, []);
  useEffect(refresh, [refresh]);
  return { ticket: state.ticket, img: state.img, refresh };
}
