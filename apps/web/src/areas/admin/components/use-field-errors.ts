import type { FormInstance } from 'antd';
import { ApiError } from '../../../api';
import { errorFieldOf } from '../../../lib/form-rules';

/**
 * Places a server refusal under the field it names (`data.field`); returns false when the
 * error names no field of this form, in which case the HTTP client's toast already told the user.
 */
export function showFieldError(form: FormInstance, err: unknown, fields: readonly string[]): boolean {
  if (!(err instanceof ApiError) || err.status !== 400) return false;
  const field = errorFieldOf(err);
  if (!field || !fields.includes(field)) return false;
  form.setFields([{ name: field, errors: [err.message] }]);
  return true;
}
