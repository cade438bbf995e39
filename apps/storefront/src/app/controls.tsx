import type { ChangeEvent, ReactNode, Ref } from 'react';

/** An error the page announces (`role="alert"`); nothing when there is none. */
export function Alert({ id, children }: { id?: string; children?: ReactNode }) {
  return children ? (
    <p id={id} role="alert" className="error">
      {children}
    </p>
  ) : null;
}

/** One `<option>` per value, in the interface's order. */
export const ChoiceOptions = ({ values }: { values: readonly string[] }) =>
  values.map((value) => (
    <option key={value} value={value}>
      {value}
    </option>
  ));

interface TextFieldProps {
  id: string;
  label: string;
  value: string;
  /** What is wrong with the value, in the person's words: announced, and tied to the input for screen readers. */
  problem?: string;
  inputRef?: Ref<HTMLInputElement>;
  inputMode?: 'numeric';
  /** `date`: the browser's date picker, whose value is YYYY-MM-DD; `search`: a search box (Escape clears it). */
  type?: 'date' | 'search';
  onChange(value: string): void;
}

/** A labelled text input with its problem below it. */
export function TextField({ id, label, value, problem, inputRef, inputMode, type, onChange }: TextFieldProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        ref={inputRef}
        type={type}
        inputMode={inputMode}
        autoComplete="off"
        value={value}
        aria-invalid={Boolean(problem)}
        aria-describedby={problem ? `${id}-problem` : undefined}
        onChange={(event: ChangeEvent<HTMLInputElement>) => onChange(event.target.value)}
      />
      <Alert id={`${id}-problem`}>{problem}</Alert>
    </div>
  );
}
