import { ForbiddenError, newIdempotencyKey, type PetstoreClient } from '@petstore/client';
import { newPetProblems, type NewPet, type NewPetProblems, type Pet, PetStatus } from '@petstore/contract';
import { type FormEvent, useId, useRef, useState } from 'react';
import { Alert, StatusOptions, TextField } from './controls';
import { describeError } from './describe-error';

interface Props {
  client: PetstoreClient;
  onCreated(pet: Pet): void;
}

type Field = keyof NewPet;

/** The category as typed: a whole number becomes one, anything else stays text, which the rules refuse in words. */
export const categoryFrom = (text: string): unknown => {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return /^[0-9]+$/.test(trimmed) ? Number(trimmed) : trimmed;
};

const READ_ONLY =
  'This API key may only read pets (scope pets:read), so it cannot add one. Connect with a key that has the pets:write scope to add pets.';

/**
 * Adds a pet by the contract's rules (newPetProblems: the service's own, in its words), shown as the person types.
 * One create is in flight at a time, and its Idempotency-Key is kept until the pet is added or the form changes, so
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

  const pet = { name, categoryId: categoryFrom(category), status };
  const problems: NewPetProblems = newPetProblems(pet);

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
            label="Name"
            value={name}
            problem={problem('name')}
            inputRef={inputs.name}
            onChange={(value) => edited('name', () => setName(value))}
          />
          <TextField
            id={`${id}-category`}
            label="Category"
            inputMode="numeric"
            value={category}
            problem={problem('categoryId')}
            inputRef={inputs.categoryId}
            onChange={(value) => edited('categoryId', () => setCategory(value))}
          />
          <div className="field">
            <label htmlFor={`${id}-status`}>Status</label>
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
