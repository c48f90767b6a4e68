import { useState } from 'react';
import type { FormInstance } from 'antd';
import { validateAndFocus } from './form-errors';

/**
 * The submit of a dialog's form: check the fields (the form shows what is wrong, nothing is sent),
 * then run the call with the values while `busy`, and keep what a refusal should show in `error`.
 * `refusal` turns what was thrown into that (or handles it and answers null: a stale record
 * reloaded, say). One shape for the reason dialogs of review, results and appeals.
 */
export function useFormSubmit<V, E = string>(
  form: FormInstance<V>,
  run: (values: V) => Promise<void>,
  refusal: (e: unknown) => E | null,
  /** Asked after the fields pass and before anything is sent (an irreversible action); false sends nothing. */
  confirm?: (values: V) => Promise<boolean>,
) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<E | null>(null);
  const submit = async () => {
    let values: V;
    try {
      values = await validateAndFocus(form);
    } catch {
      return;
    }
    // Not busy while asking: the button stays pressable for the answer's next round.
    if (confirm && !(await confirm(values))) return;
    setBusy(true);
    setError(null);
    try {
      await run(values);
    } catch (e) {
      setError(refusal(e));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, submit };
}
