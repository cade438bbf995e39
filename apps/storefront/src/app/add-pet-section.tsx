import { ForbiddenError, newIdempotencyKey, type PetstoreClient } from '@petstore/client';
import { type NewPet, type Pet, PetStatus } from '@petstore/contract';
import { type FormEvent, useId, useRef, useState } from 'react';
import { Alert, StatusOptions, TextField } from './controls';
import { describeError } from './describe-error';
import { FIELD_LABELS, newPetProblemWords } from './field-problem-words';

interface Props {
  client: PetstoreClient;
  onCreated(pet: Pet): void;
}

type Field = keyof NewPet;

/**
 * The category as typed: digits (with a minus sign, so that "-1" is told "1 or more" rather than "a whole number") become
 * a number, anything else stays text, which the rules refuse as not a whole number.
 */
export const categoryFrom = (text: string): unknown => {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return /^-?[0-9]+$/.test(trimmed) ? Number(trimmed) : trimmed;
};

// The scope is named once, as what to ask for: it is the one thing whoever hands out keys needs to hear.
const READ_ONLY = 'This API key may only look at the pets, not add them. To add pets, connect with a key that may (ask for one with the pets:write scope).';

/**
 * Adds a pet by the contract's rules (the service's own), their problems shown in the storefront's words as the person
 * types. One create is in flight at a time, and its Idempotency-Key is kept until the pet is added or the form changes, so
 * a double click or a retry after a failure adds the pet once.
 */
export function AddPetSection({ client, onCreated }: Props) {
  const id = useId();
  const [name, setName] = useState('');
  const [category, setCategory] = useState('');
  const [status, setStatus] = useState<PetStatus>(PetStatus.Available);
  const [shown, setShown] = useState<ReadonlySet<Field>>(new Set());
  const [sending, setSending] = useState(false);
  const [refusal, setRefusal] = useState<string>();
  const [added, setAdded] = useState<string>();
  const [readOnly, setReadOnly] = useState(false);
  const idempotencyKey = useRef<string>(undefined);
  // Read by a second click before React has re-rendered for the first: state alone could let both through.
  const inFlight = useRef(false);
  const inputs = { name: useRef<HTMLInputElement>(null), categoryId: useRef<HTMLInputElement>(null), status: useRef<HTMLSelectElement>(null) };

  // An empty field is a name not given ("Enter a name."), not a blank one, as with the category.
  const pet = { name: name === '' ? undefined : name, categoryId: categoryFrom(category), status };
  const problems = newPetProblemWords(pet);

  const edited = (field: Field, set: () => void) => {
    set();
    idempotencyKey.current = undefined;
    setShown((fields) => new Set(fields).add(field));
    setAdded(undefined);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (inFlight.current || readOnly) return;
    const invalid = (Object.keys(problems) as Field[])[0];
    if (invalid) {
      setShown(new Set<Field>(['name', 'categoryId', 'status']));
      inputs[invalid].current?.focus();
      return;
    }
    inFlight.current = true;
    setSending(true);
    setRefusal(undefined);
    idempotencyKey.current ??= newIdempotencyKey();
    try {
      const created = await client.createPet(pet as NewPet, { idempotencyKey: idempotencyKey.current });
      idempotencyKey.current = undefined;
      setName('');
      setCategory('');
      setShown(new Set());
      setAdded(`Added ${created.name} (id ${created.id}).`);
      onCreated(created);
    } catch (error) {
      if (error instanceof ForbiddenError) setReadOnly(true);
      else setRefusal(describeError(error));
    } finally {
      inFlight.current = false;
      setSending(false);
    }
  };

  const problem = (field: Field) => (shown.has(field) ? problems[field] : undefined);

  return (
    <section aria-labelledby={`${id}-heading`} className="panel">
      <h2 id={`${id}-heading`}>Add a pet</h2>
      <Alert>{readOnly && READ_ONLY}</Alert>
      <form onSubmit={submit} noValidate className="fields">
        <fieldset disabled={readOnly}>
          <TextField
            id={`${id}-name`}
            label={FIELD_LABELS.name}
            value={name}
            problem={problem('name')}
            inputRef={inputs.name}
            onChange={(value) => edited('name', () => setName(value))}
          />
          <TextField
            id={`${id}-category`}
            label={FIELD_LABELS.categoryId}
            inputMode="numeric"
            value={category}
            problem={problem('categoryId')}
            inputRef={inputs.categoryId}
            onChange={(value) => edited('categoryId', () => setCategory(value))}
          />
          <div className="field">
            <label htmlFor={`${id}-status`}>{FIELD_LABELS.status}</label>
            <select
              id={`${id}-status`}
              ref={inputs.status}
              value={status}
              onChange={(event) => edited('status', () => setStatus(event.target.value as PetStatus))}
            >
              <StatusOptions />
            </select>
          </div>
          <div className="actions">
            <button type="submit" aria-disabled={sending} className={sending ? 'busy' : undefined}>
              Add pet
            </button>
          </div>
        </fieldset>
      </form>
      <Alert>{refusal}</Alert>
      {added && (
        <p role="status" className="note">
          {added}
        </p>
      )}
    </section>
  );
}
