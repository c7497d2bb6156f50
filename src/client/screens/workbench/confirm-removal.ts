/** Removals that lose data: the server answers 1404 saying what goes; we ask, then call again confirmed. */
import type { App } from 'antd';
import { ApiError } from '../../api/api-error.ts';
import { effects } from '../../api/effects.ts';

type Modal = ReturnType<typeof App.useApp>['modal'];

/** Answers true once removed, false when the user cancelled or the call failed. */
export async function confirmRemoval(
  modal: Modal,
  title: string,
  labels: { ok: string; cancel: string },
  call: (confirm: boolean) => Promise<unknown>,
): Promise<boolean> {
  try {
    await call(false);
    return true;
  } catch (err) {
    if (!(err instanceof ApiError)) return false;
    if (err.code !== 1404) {
      if (!err.silent) effects.notifyError(err.code, err.message);
      return false;
    }
    const detail = err.message.replace(/^confirm data loss: /, '');
    return new Promise<boolean>((resolve) => {
      modal.confirm({
        title,
        content: detail,
        okText: labels.ok,
        cancelText: labels.cancel,
        okButtonProps: { danger: true },
        onOk: () =>
          call(true).then(
            () => resolve(true),
            () => resolve(false),
          ),
        onCancel: () => resolve(false),
      });
    });
  }
}
