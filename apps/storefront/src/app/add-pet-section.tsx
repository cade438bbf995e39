import { ForbiddenError, newIdempotencyKey, type PetstoreClient } from '@petstore/client';
import { type NewPet, type Pet, PET_FIELDS, sentFieldEntries } from '@petstore/contract';
import { type FormEvent, useId, useRef, useState } from 'react';
import { Alert } from './controls';
import { describeError } from './describe-error';
import { FieldInput, initialText, valueFrom } from './field-input';
import { newPetProblemWords } from './field-problem-words';

interface Props {
  client: PetstoreClient;
  onCreated(pet: Pet): void;
}

type Field = keyof NewPet;

/** Every field of the contract's list that a client sends, in its order. */
const FIELDS = sentFieldEntries(PET_FIELDS) as Array<[Field, (typeof PET_FIELDS)[Field]]>;

const initialTexts = () => Object.fromEntries(FIELDS.map(([field, spec]) => [field, initialText(spec)])) as Record<Field, string>;

// The scope is named as what to ask for: it is what whoever hands out keys needs to hear.
const READ_ONLY = 'This API key may only look at the pets, not add them. To add pets, connect with a key that may (ask for one with the pets:write scope).';

/**
 * Adds a pet, checked by the contract's rules as the person types. One create is in flight at a time, and its
 * Idempotency-Key is kept until the pet is added or the form changes, so a double click or a retry adds the pet once.
 */
export function AddPetSection({ client, onCreated }: Props) {
  const id = useId();
  const [texts, setTexts] = useState(initialTexts);
  const [shown, setShown] = useState<ReadonlySet<Field>>(new Set());
  const [sending, setSending] = useState(false);
  const [refusal, setRefusal] = useState<string>();
  const [added, setAdded] = useState<string>();
  const [readOnly, setReadOnly] = useState(false);
  const idempotencyKey = useRef<string>(undefined);
  // Read by a second click before React has re-rendered for the first: state alone could let both through.
  const inFlight = useRef(false);
  const inputs = useRef<Partial<Record<Field, HTMLInputElement | HTMLSelectElement | null>>>({});

  const pet = Object.fromEntries(FIELDS.map(([field, spec]) => [field, valueFrom(spec, texts[field])]));
  const problems = newPetProblemWords(pet);

  const edited = (field: Field, text: string) => {
    setTexts((before) => ({ ...before, [field]: text }));
    idempotencyKey.current = undefined;
    setShown((fields) => new Set(fields).add(field));
    setAdded(undefined);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (inFlight.current || readOnly) return;
    const invalid = (Object.keys(problems) as Field[])[0];
    if (invalid) {
      setShown(new Set(FIELDS.map(([field]) => field)));
      inputs.current[invalid]?.focus();
      return;
    }
    inFlight.current = true;
    setSending(true);
    setRefusal(undefined);
    idempotencyKey.current ??= newIdempotencyKey();
    try {
      const created = await client.createPet(pet as unknown as NewPet, { idempotencyKey: idempotencyKey.current });
      idempotencyKey.current = undefined;
      // A choice stays as it was chosen, for the next pet of the same kind; the rest starts afresh.
      setTexts((before) => Object.fromEntries(FIELDS.map(([field, spec]) => [field, spec.kind === 'choice' ? before[field] : initialText(spec)])) as Record<Field, string>);
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
          {FIELDS.map(([field, spec]) => (
            <FieldInput
              key={field}
              id={`${id}-${field}`}
              spec={spec}
              text={texts[field]}
              problem={problem(field)}
              inputRef={(element) => {
                inputs.current[field] = element;
              }}
              onChange={(text) => edited(field, text)}
            />
          ))}
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
