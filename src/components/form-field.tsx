import type { ReactNode } from 'react';

/** What a field's control carries so that it is tied to its label, hint and error (spread it on the input). */
export type FieldControl = { id: string; 'aria-describedby': string | undefined; 'aria-invalid': true | undefined };

/**
 * A labelled form field: its label, an optional hint, the control, and its error right below it,
 * announced and tied to the control (`aria-describedby`, `aria-invalid`). The ids are `${id}-label`,
 * `${id}-hint` and `${id}-error`.
 *
 * A `group` (chips: no single input to label) is labelled by a span that the group names through
 * `${id}-label`. `showOptional` writes "(optional)" after the label of a field that is not required.
 */
export function FormField({
  id,
  label,
  required,
  showOptional,
  group,
  hint,
  error,
  children,
}: {
  id: string;
  label: string;
  required?: boolean;
  showOptional?: boolean;
  group?: boolean;
  hint?: ReactNode;
  error?: string | undefined;
  children: (control: FieldControl) => ReactNode;
}) {
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  const labelText = (
    <>
      {label}
      {required ? (
        <>
          {' '}
          <span className="required" aria-hidden="true">
            *
          </span>
        </>
      ) : showOptional ? (
        <span className="muted optional"> (optional)</span>
      ) : null}
    </>
  );
  return (
    <div className="field">
      {group ? (
        <span className="field-label" id={`${id}-label`}>
          {labelText}
        </span>
      ) : (
        <label htmlFor={id} id={`${id}-label`}>
          {labelText}
        </label>
      )}
      {hint ? (
        <p className="field-hint muted" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {children({ id, 'aria-describedby': describedBy, 'aria-invalid': error ? true : undefined })}
      {error ? (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
