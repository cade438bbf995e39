import { fieldEntries, type Pet, PET_FIELDS, PetStatus } from '@petstore/contract';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { PetService, refusal } from '../testing/pet-service';
import { App } from './app';
import { saveConnection } from './connection';

const pets = (count: number): Pet[] =>
  Array.from({ length: count }, (_, index) => ({ id: index + 1, name: `Pet ${index + 1}`, categoryId: 1, status: PetStatus.Available }));

describe(App.name, () => {
  let service: PetService;
  const realFetch = globalThis.fetch;

  /**
   * The page with `stored` pets behind it, opened at `path`, already connected unless told otherwise; `first` answers
   * the page's first request instead of the service.
   */
  const open = (stored: Pet[], { path = '/storefront/', connected = true, first }: { path?: string; connected?: boolean; first?: () => Promise<Response> | Response } = {}) => {
    service = new PetService(stored);
    if (first) service.next(first);
    globalThis.fetch = service.fetch as typeof fetch;
    window.history.replaceState(null, '', path);
    if (connected) saveConnection({ apiKey: 'pk_test_key_0123456789' });
    render(<App />);
  };
  const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);
  const names = () => rows().map((row) => within(row).getAllByRole('cell')[1].textContent);
  /** What the page says about its connection: its status line and its alerts. */
  const said = () => [screen.getAllByRole('status')[0].textContent, ...screen.queryAllByRole('alert').map((alert) => alert.textContent)].filter(Boolean);
  const ADDRESS = 'http://localhost/v1';
  const unreachable = () => Promise.reject(new TypeError('Failed to fetch'));
  /**
   * Once the event stream has started, a list with every page shown is read again to its end (live-pets.spec): waited
   * for, so that a request the test then counts or answers is its own.
   */
  const caughtUp = () => waitFor(() => expect(service.sent.filter(({ url }) => url.searchParams.get('limit') === '100')).toHaveLength(1));

  beforeEach(() => window.sessionStorage.clear());
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  it('asks for a key only, talks to the service that serves the page, and keeps the key for the tab only', async () => {
    open(pets(1), { connected: false });
    expect(screen.queryByRole('table')).toBeNull();
    // No address to type (the key's is a password field, no textbox): the page's policy lets it reach its own service only.
    expect(screen.queryAllByRole('textbox')).toEqual([]);
    expect(screen.queryByLabelText('API address')).toBeNull();
    fireEvent.change(screen.getByLabelText('API key'), { target: { value: 'pk_test_key_0123456789' } });
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(names()).toEqual(['Pet 1']));
    expect(service.sent[0].headers.get('authorization')).toBe('Bearer pk_test_key_0123456789');
    expect(service.sent[0].url.href).toBe(`${ADDRESS}/pets`);
    expect(window.sessionStorage.length).toBe(1);
    expect(window.location.href).not.toContain('pk_test');
  });

  it('lists the pets with their columns, and loads more by the cursor until the last page', async () => {
    open(pets(45));
    await waitFor(() => expect(rows()).toHaveLength(20));
    // A column per field of the contract's list, the interface's four first.
    const headers = screen.getAllByRole('columnheader').map((header) => header.textContent);
    expect(headers.slice(0, 4)).toEqual(['Id', 'Name', 'Category', 'Status']);
    expect(headers).toEqual(fieldEntries(PET_FIELDS).map(([, spec]) => spec.label));
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

  describe('finding pets by name and category', () => {
    const stored: Pet[] = [
      { id: 1, name: 'Rex', categoryId: 1, status: PetStatus.Available },
      { id: 2, name: 'Éloïse', categoryId: 2, status: PetStatus.Sold },
      { id: 3, name: 'T-Rex', categoryId: 2, status: PetStatus.Available },
    ];
    const searched = () => service.sent.filter(({ method }) => method === 'GET').map(({ url }) => Object.fromEntries(url.searchParams));

    it('reads the search and the category from the address, shows them, and sends them', async () => {
      open(stored, { path: '/storefront/?name=REX&categoryId=2' });
      await waitFor(() => expect(names()).toEqual(['T-Rex']));
      expect(screen.getByLabelText('Search by name')).toHaveProperty('value', 'REX');
      expect(screen.getByLabelText('Filter by category')).toHaveProperty('value', '2');
      expect(searched()).toEqual([{ name: 'REX', categoryId: '2' }]);
    });

    it('searches once typing pauses, for the text typed last, and keeps it in the address', async () => {
      open(stored);
      await waitFor(() => expect(rows()).toHaveLength(3));
      await caughtUp();
      const box = screen.getByLabelText('Search by name');
      for (const text of ['é', 'él', 'élo']) fireEvent.change(box, { target: { value: text } });
      await waitFor(() => expect(names()).toEqual(['Éloïse']));
      expect(searched()).toEqual([{}, { limit: '100' }, { name: 'élo' }]);
      expect(window.location.search).toBe('?name=%C3%A9lo');
      fireEvent.change(screen.getByLabelText('Filter by category'), { target: { value: '2' } });
      fireEvent.change(box, { target: { value: '' } });
      await waitFor(() => expect(names()).toEqual(['Éloïse', 'T-Rex']));
      expect(window.location.search).toBe('?categoryId=2');
    });

    it('drops the answer to a search typed over: its request is aborted, and only the latest is shown', async () => {
      open(stored);
      await waitFor(() => expect(rows()).toHaveLength(3));
      await caughtUp();
      let answer!: (response: Response) => void;
      service.next(() => new Promise<Response>((resolve) => (answer = resolve)));
      fireEvent.change(screen.getByLabelText('Search by name'), { target: { value: 'rex' } });
      await waitFor(() => expect(service.sent).toHaveLength(3));
      fireEvent.change(screen.getByLabelText('Search by name'), { target: { value: 'élo' } });
      await waitFor(() => expect(names()).toEqual(['Éloïse']));
      expect(service.sent[2].signal?.aborted).toBe(true);
      await act(async () => answer(new Response(JSON.stringify(stored.slice(0, 1)), { status: 200, headers: { 'content-type': 'application/json' } })));
      expect(names()).toEqual(['Éloïse']);
    });

    it('goes Back to the filters before, the boxes with them, dropping what was typed there but not yet searched', async () => {
      open(stored);
      await waitFor(() => expect(rows()).toHaveLength(3));
      fireEvent.change(screen.getByLabelText('Search by name'), { target: { value: 'rex' } });
      await waitFor(() => expect(names()).toEqual(['Rex', 'T-Rex']));
      fireEvent.change(screen.getByLabelText('Filter by status'), { target: { value: 'sold' } });
      await screen.findByText('No pets match.');
      fireEvent.change(screen.getByLabelText('Search by name'), { target: { value: 'élo' } });
      act(() => window.history.back());
      await waitFor(() => expect(window.location.search).toBe('?name=rex'));
      await waitFor(() => expect(names()).toEqual(['Rex', 'T-Rex']));
      expect(screen.getByLabelText('Search by name')).toHaveProperty('value', 'rex');
      expect(screen.getByLabelText('Filter by status')).toHaveProperty('value', '');
      expect(searched().at(-1)).toEqual({ name: 'rex' });
    });

    it('says "No pets match." when nothing does', async () => {
      open(stored, { path: '/storefront/?name=nobody' });
      expect(await screen.findByText('No pets match.')).toBeTruthy();
    });

    it('says what is wrong with a category that is not one, and does not search with it', async () => {
      open(stored);
      await waitFor(() => expect(rows()).toHaveLength(3));
      await caughtUp();
      fireEvent.change(screen.getByLabelText('Filter by category'), { target: { value: 'two' } });
      expect(await screen.findByText('The category must be a whole number, such as 3.')).toBeTruthy();
      expect(screen.getByLabelText('Filter by category').getAttribute('aria-invalid')).toBe('true');
      fireEvent.change(screen.getByLabelText('Filter by category'), { target: { value: '0' } });
      expect(await screen.findByText('The category must be 1 or more.')).toBeTruthy();
      // A category it takes is searched for once typing pauses: the requests before it show that neither "two" nor
      // "0" was ever sent.
      fireEvent.change(screen.getByLabelText('Filter by category'), { target: { value: '2' } });
      await waitFor(() => expect(names()).toEqual(['Éloïse', 'T-Rex']));
      expect(searched()).toEqual([{}, { limit: '100' }, { categoryId: '2' }]);
    });

    it('lists a pet added here only when it passes the search', async () => {
      open(stored, { path: '/storefront/?name=rex' });
      await waitFor(() => expect(names()).toEqual(['Rex', 'T-Rex']));
      const add = async (name: string) => {
        fireEvent.change(screen.getByLabelText('Name'), { target: { value: name } });
        fireEvent.change(screen.getByLabelText('Category'), { target: { value: '1' } });
        fireEvent.click(screen.getByRole('button', { name: 'Add pet' }));
        await screen.findByText(new RegExp(`Added ${name}`));
      };
      await add('Bo');
      await add('REXY');
      expect(names()).toEqual(['Rex', 'T-Rex', 'REXY']);
    });
  });

  it('says so when there are no pets', async () => {
    open([], { path: '/storefront/?status=pending' });
    expect(await screen.findByText('No pending pets.')).toBeTruthy();
  });

  it('says "Connecting" until the service answers, and "Connected" with the form and the list only once it has', async () => {
    let answer!: (response: Response) => void;
    open(pets(1), { first: () => new Promise<Response>((resolve) => (answer = resolve)) });
    expect(said()).toEqual([`Connecting to ${ADDRESS}…`]);
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add pet' })).toBeNull();
    await act(async () => answer(new Response(JSON.stringify(pets(1)), { status: 200, headers: { 'content-type': 'application/json' } })));
    expect(said()).toEqual([`Connected to ${ADDRESS}. The key is kept for this tab only.`]);
    expect(names()).toEqual(['Pet 1']);
    expect(screen.getByRole('button', { name: 'Add pet' })).toBeTruthy();
  });

  it.each([
    ['a refused key (401)', () => refusal(401, 'unauthorized', 'Missing or invalid API key.'), 'The API key was refused. Check that it was typed in full, or ask for a new key.'],
    ['a service that cannot be reached', unreachable, 'The service that served this page could not be reached. Check your network connection, then try again.'],
    ['something in front of the service answering (404)', () => refusal(404, 'not_found', 'Cannot GET /v1/pets'), "Something in front of the pet store's service answered instead of it. Try again shortly, or tell whoever runs this site."],
    ['a service that cannot answer now (503)', () => refusal(503, 'service_unavailable', 'The database is not reachable right now; retry shortly.'), 'The database is not reachable right now; retry shortly.'],
  ])('says only why it could not connect, for %s: one alert, no "Connected", no list, no form', async (_, first, words) => {
    open(pets(1), { first });
    await waitFor(() => expect(said()).toEqual([words]));
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByText(/No pets/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add pet' })).toBeNull();
  });

  it('connects once the key works, after a refusal', async () => {
    open(pets(1), { first: () => refusal(401, 'unauthorized', 'Missing or invalid API key.') });
    await screen.findByRole('alert');
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(names()).toEqual(['Pet 1']));
    expect(said()).toEqual([`Connected to ${ADDRESS}. The key is kept for this tab only.`]);
  });

  it('says only that the key was refused when it stops working after listing, as when it never did', async () => {
    open([]);
    await screen.findByText(/^Connected/);
    await caughtUp();
    service.next(() => refusal(401, 'unauthorized', 'Missing or invalid API key.'));
    fireEvent.change(screen.getByLabelText('Filter by status'), { target: { value: 'sold' } });
    await waitFor(() => expect(said()).toEqual(['The API key was refused. Check that it was typed in full, or ask for a new key.']));
    expect(screen.queryByRole('table')).toBeNull();
  });

  it("shows the list's own failure (429) in the list, still connected", async () => {
    open(pets(1));
    await screen.findByText(/^Connected/);
    await caughtUp();
    service.next(() => refusal(429, 'rate_limited', 'Too many requests for this API key; retry in 2 s.', { 'retry-after': '2' }));
    fireEvent.change(screen.getByLabelText('Filter by status'), { target: { value: 'sold' } });
    expect((await screen.findByRole('alert')).textContent).toBe('Too many requests in a short time. Try again in 2 seconds.');
    expect(screen.getByText(/^Connected/)).toBeTruthy();
    expect(screen.getByRole('table')).toBeTruthy();
  });

  it('asks for the key, instead of listing, when the key is spaces alone', () => {
    open([], { connected: false });
    fireEvent.change(screen.getByLabelText('API key'), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect(said()).toEqual(['Enter the API key.']);
    expect(screen.queryByRole('table')).toBeNull();
    expect(service.sent).toEqual([]);
  });

  it('connects with the key an earlier version kept beside an address, to its own service whatever that address was', async () => {
    window.sessionStorage.setItem('petstore.connection', JSON.stringify({ baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'pk_test_key_0123456789' }));
    open(pets(1), { connected: false });
    await waitFor(() => expect(names()).toEqual(['Pet 1']));
    expect(service.sent.map(({ url }) => url.origin)).toEqual([window.location.origin]);
    expect(said()).toEqual([`Connected to ${ADDRESS}. The key is kept for this tab only.`]);
  });

  it('puts the form before the list, so that it is not below every pet on a narrow screen', async () => {
    open(pets(45));
    await waitFor(() => expect(rows()).toHaveLength(20));
    const form = screen.getByRole('heading', { name: 'Add a pet' });
    expect(form.compareDocumentPosition(screen.getByRole('table')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('lists a pet added on the page at once when it matches the filter, and not otherwise', async () => {
    open(pets(1), { path: '/storefront/?status=available' });
    await waitFor(() => expect(names()).toEqual(['Pet 1']));
    const lists = () => service.sent.filter(({ method }) => method === 'GET');
    // The list, and the same read again once the event stream started: no more than those after a pet is added.
    await waitFor(() => expect(lists()).toHaveLength(2));
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
    expect(lists()).toHaveLength(2);
  });
});
