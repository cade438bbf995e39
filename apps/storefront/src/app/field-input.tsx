import type { FieldSpec } from '@petstore/contract';
import type { Ref } from 'react';
import { ChoiceOptions, TextField } from './controls';

// A form field for each kind of the contract's fields: what the person types is kept as text, and becomes a value
// (valueFrom) only when the form reads it.

/**
 * The value `text` stands for. An empty field is a value not given, not a blank one. A whole number's digits become a
 * number, a minus sign included so that "-1" is told "1 or more"; anything else stays text, which the rules refuse.
 */
export function valueFrom(spec: FieldSpec, text: string): unknown {
  if (spec.kind !== 'integer') return text === '' ? undefined : text;
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return /^-?[0-9]+$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/** What the field holds before the person touches it: a choice's default, otherwise nothing. */
export const initialText = (spec: FieldSpec): string => (spec.kind === 'choice' ? (spec.default ?? '') : '');

interface Props {
  id: string;
  spec: FieldSpec;
  text: string;
  /** What is wrong with the value, in the person's words. */
  problem?: string;
  inputRef?: Ref<HTMLInputElement & HTMLSelectElement>;
  onChange(text: string): void;
}

/** The input a field is typed or chosen in, labelled with the field's label. */
export function FieldInput({ id, spec, text, problem, inputRef, onChange }: Props) {
  if (spec.kind !== 'choice') {
    const type = spec.kind === 'date' ? 'date' : undefined;
    const inputMode = spec.kind === 'integer' ? 'numeric' : undefined;
    return <TextField id={id} label={spec.label} value={text} problem={problem} inputRef={inputRef} type={type} inputMode={inputMode} onChange={onChange} />;
  }
  return (
    <div className="field">
      <label htmlFor={id}>{spec.label}</label>
      <select id={id} ref={inputRef} value={text} onChange={(event) => onChange(event.target.value)}>
        {spec.default === undefined && <option value="">choose</option>}
        <ChoiceOptions values={spec.values} />
      </select>
    </div>
  );
}
