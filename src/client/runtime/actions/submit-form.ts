/** Saves a form widget; when the form itself fired the event, its values come as the payload. */
import { defineAction, refField } from './define.ts';

export const submitForm = defineAction({
  type: 'submitForm',
  perform: async (a, { host, payload }) => {
    const values =
      typeof payload === 'object' && payload !== null && !Array.isArray(payload)
        ? (payload as Record<string, unknown>)
        : undefined;
    await host.submitForm(refField(a, 'form'), values);
  },
});
