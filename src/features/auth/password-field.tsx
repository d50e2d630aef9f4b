import { useId, useState } from 'react';

type Props = {
  label: string;
  value: string;
  onChange(value: string): void;
  autoComplete: 'current-password' | 'new-password';
  required?: boolean;
  /** Shows the form's required mark (*) after the label. */
  markRequired?: boolean;
  name?: string;
};

/** A password input with a Show/Hide toggle (a real button, so it works from the keyboard). */
export function PasswordField({ label, value, onChange, autoComplete, required, markRequired, name }: Props) {
  const id = useId();
  const [visible, setVisible] = useState(false);
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {markRequired ? (
          <>
            {' '}
            <span className="required" aria-hidden="true">
              *
            </span>
          </>
        ) : null}
      </label>
      <div className="password-input">
        <input
          id={id}
          name={name}
          type={visible ? 'text' : 'password'}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          autoComplete={autoComplete}
          required={required}
        />
        <button
          type="button"
          className="button button-secondary button-small"
          aria-pressed={visible}
          aria-label={visible ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
          onClick={() => setVisible((v) => !v)}
        >
          {visible ? 'Hide' : 'Show'}
        </button>
      </div>
    </div>
  );
}
