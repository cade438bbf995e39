import { EVERY_KIND_FIELDS as FIELDS } from '@petstore/testing/every-kind';
import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { FieldInput, initialText, valueFrom } from './field-input';
import { problemWords } from './field-problem-words';

describe(valueFrom.name, () => {
  it.each([
    ['12', 12],
    [' 12 ', 12],
    ['', undefined],
    ['  ', undefined],
    ['1e3', '1e3'],
    ['-1', -1],
    ['2.5', '2.5'],
  ])('reads a whole number typed as %j as %j', (text, value) => expect(valueFrom(FIELDS.ownerId, text)).toBe(value));

  it.each([
    [FIELDS.nickName, ' Rex ', ' Rex '],
    [FIELDS.nickName, '', undefined],
    [FIELDS.bornOn, '2024-02-29', '2024-02-29'],
    [FIELDS.bornOn, '', undefined],
    [FIELDS.size, 'large', 'large'],
  ])('reads %j typed as %j as %j', (spec, text, value) => expect(valueFrom(spec, text)).toBe(value));

  it('starts a choice at its default, and the rest empty', () => {
    expect([FIELDS.size, FIELDS.nickName, FIELDS.bornOn].map(initialText)).toEqual(['small', '', '']);
  });
});

describe(FieldInput.name, () => {
  /** Every field of the list as the form shows it, with its problems in the storefront's words. */
  function EveryKindForm() {
    const fields = [FIELDS.nickName, FIELDS.ownerId, FIELDS.size, FIELDS.bornOn] as const;
    const names = ['nickName', 'ownerId', 'size', 'bornOn'] as const;
    const [texts, setTexts] = useState<string[]>(fields.map(initialText));
    const values = Object.fromEntries(names.map((name, index) => [name, valueFrom(fields[index], texts[index])]));
    const problems = problemWords(FIELDS, values);
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
    render(<EveryKindForm />);
    expect(screen.getByLabelText('Nick name').getAttribute('type')).toBeNull();
    expect(screen.getByLabelText('Owner').getAttribute('inputmode')).toBe('numeric');
    expect(screen.getByLabelText('Born on').getAttribute('type')).toBe('date');
    const size = screen.getByLabelText('Size') as HTMLSelectElement;
    expect([...size.options].map((option) => option.value)).toEqual(['small', 'large']);
    expect(size.value).toBe('small');
  });

  it('ties each problem to its input', () => {
    render(<EveryKindForm />);
    fireEvent.change(screen.getByLabelText('Nick name'), { target: { value: 'Rex' } });
    fireEvent.change(screen.getByLabelText('Owner'), { target: { value: '100' } });
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual(['The owner number is too large.']);
    expect(screen.getByLabelText('Owner').getAttribute('aria-describedby')).toBe('ownerId-problem');
    fireEvent.change(screen.getByLabelText('Owner'), { target: { value: '99' } });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('holds a date as YYYY-MM-DD, and never a day that does not exist: the date input drops it', () => {
    render(<EveryKindForm />);
    const bornOn = screen.getByLabelText('Born on') as HTMLInputElement;
    fireEvent.change(bornOn, { target: { value: '2024-02-29' } });
    expect(bornOn.value).toBe('2024-02-29');
    fireEvent.change(bornOn, { target: { value: '2023-02-29' } });
    expect(bornOn.value).toBe('');
  });
});
