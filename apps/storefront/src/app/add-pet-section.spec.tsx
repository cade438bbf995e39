import { PetstoreClient } from '@petstore/client';
import type { Pet } from '@petstore/contract';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { PetService, refusal } from '../testing/pet-service';
import { AddPetSection } from './add-pet-section';

describe(AddPetSection.name, () => {
  let service: PetService;
  let created: Pet[];

  const show = () => {
    service = new PetService();
    created = [];
    const client = new PetstoreClient({ baseUrl: 'http://petstore.test/v1', apiKey: 'pk_test_key_0123456789', fetch: service.fetch, maxRetries: 0 });
    render(<AddPetSection client={client} onCreated={(pet) => created.push(pet)} />);
  };
  const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
  const add = () => fireEvent.click(screen.getByRole('button', { name: 'Add pet' }));
  const posts = () => service.sent.filter(({ method }) => method === 'POST');

  beforeEach(show);

  it("shows a field's problem in a shop assistant's words as the person types, tied to the field, and only for fields they touched", () => {
    type('Name', '   ');
    expect(screen.getByRole('alert')).toHaveProperty('textContent', 'Enter a name: spaces alone do not count.');
    expect(screen.getByLabelText('Name').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Name').getAttribute('aria-describedby')).toBe(screen.getByRole('alert').id);
    type('Name', 'Rex');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('sends nothing while a field is invalid: every problem shown, the first invalid field focused', () => {
    add();
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual(['Enter a name.', 'Enter a category.']);
    expect(document.activeElement).toBe(screen.getByLabelText('Name'));
    expect(service.sent).toEqual([]);
  });

  // The values of the issue: sent, but told "is required and must be …" and "from 1 to 9007199254740991".
  it.each([
    ['a name of 101 characters', 'x'.repeat(101), '1', 'Name', 'The name is too long: at most 100 characters (this one has 101).'],
    ['category x', 'Rex', 'x', 'Category', 'The category must be a whole number, such as 3.'],
    ['category 1.5', 'Rex', '1.5', 'Category', 'The category must be a whole number, such as 3.'],
    ['category 1e3', 'Rex', '1e3', 'Category', 'The category must be a whole number, such as 3.'],
    ['category 0', 'Rex', '0', 'Category', 'The category must be 1 or more.'],
    ['category -1', 'Rex', '-1', 'Category', 'The category must be 1 or more.'],
    ['category 2^53', 'Rex', String(2 ** 53), 'Category', 'The category number is too large.'],
    ['category 99999999999999999999', 'Rex', '99999999999999999999', 'Category', 'The category number is too large.'],
  ])('refuses %s in words for people, at its field, and sends nothing', (_, name, category, field, words) => {
    type('Name', name);
    type('Category', category);
    add();
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([words]);
    expect(screen.getByLabelText(field).getAttribute('aria-describedby')).toBe(screen.getByRole('alert').id);
    expect(service.sent).toEqual([]);
  });

  it('adds a valid pet with an Idempotency-Key, names it, and hands it to the list', async () => {
    type('Name', '🐈'.repeat(100));
    type('Category', '7');
    type('Status', 'pending');
    add();
    await screen.findByText(/^Added /);
    expect(posts()).toHaveLength(1);
    expect(posts()[0].body).toEqual({ name: '🐈'.repeat(100), categoryId: 7, status: 'pending' });
    expect(posts()[0].headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(created).toEqual([{ id: 1, name: '🐈'.repeat(100), categoryId: 7, status: 'pending' }]);
    expect(screen.getByLabelText('Name')).toHaveProperty('value', '');
  });

  it('sends one create for a double click', async () => {
    let answer!: (response: Response) => void;
    service.next(() => new Promise<Response>((resolve) => (answer = resolve)));
    type('Name', 'Rex');
    type('Category', '1');
    add();
    add();
    await act(async () => answer(new Response(JSON.stringify({ id: 5, name: 'Rex', categoryId: 1, status: 'available' }), { status: 201 })));
    await screen.findByText('Added Rex (id 5).');
    expect(posts()).toHaveLength(1);
  });

  it('retries a failed create with the same key, and takes a new key once the pet changed', async () => {
    service.next(() => refusal(503, 'service_unavailable', 'The database is not reachable right now; retry shortly.', { 'retry-after': '1' }));
    service.next(() => refusal(503, 'service_unavailable', 'The database is not reachable right now; retry shortly.', { 'retry-after': '1' }));
    type('Name', 'Rex');
    type('Category', '1');
    add();
    expect((await screen.findByRole('alert')).textContent).toBe('The database is not reachable right now; retry shortly.');
    add();
    await waitFor(() => expect(posts()).toHaveLength(2));
    type('Name', 'Rexa');
    add();
    await screen.findByText(/^Added Rexa/);
    const keys = posts().map(({ headers }) => headers.get('idempotency-key'));
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it('says when to try again after a 429, once', async () => {
    service.next(() => refusal(429, 'rate_limited', 'Too many requests for this API key; retry in 3 s.', { 'retry-after': '3' }));
    type('Name', 'Rex');
    type('Category', '1');
    add();
    expect((await screen.findByRole('alert')).textContent).toBe('Too many requests in a short time. Try again in 3 seconds.');
  });

  it('says why a read-only key cannot add, and stops offering the form', async () => {
    service.next(() => refusal(403, 'forbidden', 'This API key lacks the pets:write scope.'));
    type('Name', 'Rex');
    type('Category', '1');
    add();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This API key may only look at the pets, not add them. To add pets, connect with a key that may (ask for one with the pets:write scope).',
    );
    expect(screen.getByRole('group')).toHaveProperty('disabled', true);
    add();
    expect(posts()).toHaveLength(1);
  });
});
