import { type Pet, PetStatus } from '@petstore/contract';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { PetService, refusal } from '../testing/pet-service';
import { App } from './app';
import { saveConnection } from './connection';

const pets = (count: number): Pet[] =>
  Array.from({ length: count }, (_, index) => ({ id: index + 1, name: `Pet ${index + 1}`, categoryId: 1, status: PetStatus.Available }));

describe(App.name, () => {
  let service: PetService;
  const realFetch = globalThis.fetch;

  /** The page with `stored` pets behind it, opened at `path`, already connected unless told otherwise. */
  const open = (stored: Pet[], { path = '/storefront/', connected = true } = {}) => {
    service = new PetService(stored);
    globalThis.fetch = service.fetch as typeof fetch;
    window.history.replaceState(null, '', path);
    if (connected) saveConnection({ baseUrl: `${window.location.origin}/v1`, apiKey: 'pk_test_key_0123456789' });
    render(<App />);
  };
  const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);
  const names = () => rows().map((row) => within(row).getAllByRole('cell')[1].textContent);

  beforeEach(() => window.sessionStorage.clear());
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  it('asks for a key first, with the address of the service that serves the page, and keeps it for the tab only', async () => {
    open(pets(1), { connected: false });
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByLabelText('API address')).toHaveProperty('value', `${window.location.origin}/v1`);
    fireEvent.change(screen.getByLabelText('API key'), { target: { value: 'pk_test_key_0123456789' } });
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(names()).toEqual(['Pet 1']));
    expect(service.sent[0].headers.get('authorization')).toBe('Bearer pk_test_key_0123456789');
    expect(window.sessionStorage.length).toBe(1);
    expect(window.location.href).not.toContain('pk_test');
  });

  it('lists the pets with their columns, and loads more by the cursor until the last page', async () => {
    open(pets(45));
    expect(screen.getAllByRole('columnheader').map((header) => header.textContent)).toEqual(['Id', 'Name', 'Category', 'Status']);
    await waitFor(() => expect(rows()).toHaveLength(20));
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(rows()).toHaveLength(40));
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(rows()).toHaveLength(45));
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(screen.getByText('45 pets, all shown.')).toBeTruthy();
    expect(service.sent.map(({ url }) => url.searchParams.get('cursor'))).toEqual([null, '20', '40']);
  });

  it('filters by status through the URL: the filter sent, the address kept for a reload or a link', async () => {
    open([...pets(2), { id: 3, name: 'Sold one', categoryId: 2, status: PetStatus.Sold }], { path: '/storefront/?status=sold' });
    await waitFor(() => expect(names()).toEqual(['Sold one']));
    expect(screen.getByLabelText('Filter by status')).toHaveProperty('value', 'sold');
    fireEvent.change(screen.getByLabelText('Filter by status'), { target: { value: 'available' } });
    await waitFor(() => expect(names()).toEqual(['Pet 1', 'Pet 2']));
    expect(window.location.search).toBe('?status=available');
    fireEvent.change(screen.getByLabelText('Filter by status'), { target: { value: '' } });
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(window.location.search).toBe('');
    expect(service.sent.map(({ url }) => url.searchParams.get('status'))).toEqual(['sold', 'available', null]);
  });

  it('says so when there are no pets', async () => {
    open([], { path: '/storefront/?status=pending' });
    expect(await screen.findByText('No pending pets.')).toBeTruthy();
  });

  it("shows a refused key's error as an alert, in words for the person at the page", async () => {
    open([]);
    service.next(() => refusal(401, 'unauthorized', 'Missing or invalid API key.'));
    // The first list went out with the render; the next one (a filter) meets the refusal.
    fireEvent.change(screen.getByLabelText('Filter by status'), { target: { value: 'sold' } });
    expect((await screen.findByRole('alert')).textContent).toBe('The API key was refused. Check that it was typed in full, or ask for a new key.');
  });

  it('says why an address cannot be used, instead of listing', () => {
    saveConnection({ baseUrl: 'http://', apiKey: 'pk_test_key_0123456789' });
    open([], { connected: false });
    expect(screen.getByRole('alert').textContent).toMatch(/^baseUrl must be an absolute URL/);
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('lists a pet added on the page at once when it matches the filter, and not otherwise', async () => {
    open(pets(1), { path: '/storefront/?status=available' });
    await waitFor(() => expect(names()).toEqual(['Pet 1']));
    const add = async (name: string, status: string) => {
      fireEvent.change(screen.getByLabelText('Name'), { target: { value: name } });
      fireEvent.change(screen.getByLabelText('Category'), { target: { value: '3' } });
      fireEvent.change(screen.getByLabelText('Status'), { target: { value: status } });
      fireEvent.click(screen.getByRole('button', { name: 'Add pet' }));
      await screen.findByText(new RegExp(`^Added ${name} `));
    };
    await add('Rex', 'available');
    expect(names()).toEqual(['Pet 1', 'Rex']);
    await add('Gone', 'sold');
    expect(names()).toEqual(['Pet 1', 'Rex']);
    expect(service.sent.filter(({ method }) => method === 'GET')).toHaveLength(1);
  });
});
