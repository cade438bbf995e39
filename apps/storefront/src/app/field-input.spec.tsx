import type { FieldList } from '@petstore/contract';
import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { FieldInput, initialText, valueFrom } from './field-input';
import { problemWords } from './field-problem-words';

/** A record with a field of every kind, so that each kind's input is tried before a real field uses it. */
interface Parcel {
  id: number;
  sender: string;
  weight: number;
  speed?: 'standard' | 'express';
  sentOn?: string;
}

const PARCEL_FIELDS: FieldList<Parcel> = {
  id: { kind: 'integer', min: 1, max: Number.MAX_SAFE_INTEGER, assigned: true, label: 'Id', description: 'id' },
  sender: { kind: 'text', minLength: 1, maxLength: 10, label: 'Sender', description: 'sender' },
  weight: { kind: 'integer', min: 1, max: 30, label: 'Weight', description: 'weight' },
  speed: { kind: 'choice', values: ['standard', 'express'], enumName: 'Speed', default: 'standard', optional: true, label: 'Speed', description: 'speed' },
  sentOn: { kind: 'date', optional: true, label: 'Sent on', description: 'sent on' },
};

describe(valueFrom.name, () => {
  it.each([
    ['12', 12],
    [' 12 ', 12],
    ['', undefined],
    ['  ', undefined],
    ['1e3', '1e3'],
    ['-1', -1],
    ['2.5', '2.5'],
  ])('reads a whole number typed as %j as %j', (text, value) => expect(valueFrom(PARCEL_FIELDS.weight, text)).toBe(value));

  it.each([
    [PARCEL_FIELDS.sender, ' Ana ', ' Ana '],
    [PARCEL_FIELDS.sender, '', undefined],
    [PARCEL_FIELDS.sentOn, '2024-02-29', '2024-02-29'],
    [PARCEL_FIELDS.sentOn, '', undefined],
    [PARCEL_FIELDS.speed, 'express', 'express'],
  ])('reads %j typed as %j as %j', (spec, text, value) => expect(valueFrom(spec, text)).toBe(value));

  it('starts a choice at its default, and the rest empty', () => {
    expect([PARCEL_FIELDS.speed, PARCEL_FIELDS.sender, PARCEL_FIELDS.sentOn].map(initialText)).toEqual(['standard', '', '']);
  });
});

describe(FieldInput.name, () => {
  /** Every field of the list as the form shows it, with its problems in the storefront's words. */
  function ParcelForm() {
    const fields = [PARCEL_FIELDS.sender, PARCEL_FIELDS.weight, PARCEL_FIELDS.speed, PARCEL_FIELDS.sentOn] as const;
    const names = ['sender', 'weight', 'speed', 'sentOn'] as const;
    const [texts, setTexts] = useState<string[]>(fields.map(initialText));
    const values = Object.fromEntries(names.map((name, index) => [name, valueFrom(fields[index], texts[index])]));
    const problems = problemWords(PARCEL_FIELDS, values);
    return fields.map((spec, index) => (
      <FieldInput
        key={names[index]}
        id={names[index]}
        spec={spec}
        text={texts[index]}
        problem={problems[names[index]]}
        onChange={(text) => setTexts((before) => before.map((old, at) => (at === index ? text : old)))}
      />
    ));
  }

  it('gives each kind its input, labelled with the field’s label', () => {
    render(<ParcelForm />);
    expect(screen.getByLabelText('Sender').getAttribute('type')).toBeNull();
    expect(screen.getByLabelText('Weight').getAttribute('inputmode')).toBe('numeric');
    expect(screen.getByLabelText('Sent on').getAttribute('type')).toBe('date');
    const speed = screen.getByLabelText('Speed') as HTMLSelectElement;
    expect([...speed.options].map((option) => option.value)).toEqual(['standard', 'express']);
    expect(speed.value).toBe('standard');
  });

  it('ties each problem to its input', () => {
    render(<ParcelForm />);
    fireEvent.change(screen.getByLabelText('Sender'), { target: { value: 'Ana' } });
    fireEvent.change(screen.getByLabelText('Weight'), { target: { value: '31' } });
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual(['The weight number is too large.']);
    expect(screen.getByLabelText('Weight').getAttribute('aria-describedby')).toBe('weight-problem');
    fireEvent.change(screen.getByLabelText('Weight'), { target: { value: '30' } });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('holds a date as YYYY-MM-DD, and never a day that does not exist: the date input drops it', () => {
    render(<ParcelForm />);
    const sentOn = screen.getByLabelText('Sent on') as HTMLInputElement;
    fireEvent.change(sentOn, { target: { value: '2024-02-29' } });
    expect(sentOn.value).toBe('2024-02-29');
    fireEvent.change(sentOn, { target: { value: '2023-02-29' } });
    expect(sentOn.value).toBe('');
  });
});
