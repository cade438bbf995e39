import { type Pet, PetStatus } from '@petstore/contract';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { eventsReset, PetService, refusal } from '../testing/pet-service';
import { App } from './app';
import { saveConnection } from './connection';

const pets = (count: number): Pet[] =>
  Array.from({ length: count }, (_, index) => ({ id: index + 1, name: `Pet ${index + 1}`, categoryId: 1, status: PetStatus.Available }));

describe('pets added elsewhere', () => {
  let service: PetService;
  const realFetch = globalThis.fetch;
  const KEY = 'pk_test_key_0123456789';
  const LOST = 'Lost touch with the shop. New pets will show when we are back.';
  const BACK = 'Back in touch with the shop.';

  /**
   * The page, connected, with `stored` pets behind it, at `path`; `list` answers its first request for pets instead of
   * the service, `stream` its first for the stream.
   */
  const open = (stored: Pet[], { path = '/storefront/', list, stream }: { path?: string; list?: () => Response; stream?: () => Response } = {}) => {
    service = new PetService(stored);
    if (list) service.next(list);
    if (stream) service.nextStream(stream);
    globalThis.fetch = service.fetch as typeof fetch;
    window.history.replaceState(null, '', path);
    saveConnection({ apiKey: KEY });
    return render(<App />);
  };
  /** Waits until the page follows the stream: a pet added elsewhere before would not be in it, as with the service. */
  const following = () => waitFor(() => expect(service.openStreams()).toHaveLength(1));
  /** Each list request's cursor and page size. */
  const listReads = () => service.sent.map(({ url }) => [url.searchParams.get('cursor'), url.searchParams.get('limit')]);
  /** The first page, read to show the list, then read again to its end once the stream started (every page shown). */
  const caughtUp = () => waitFor(() => expect(listReads()).toEqual([[null, null], [null, '100']]));
  const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);
  const names = () => rows().map((row) => within(row).getAllByRole('cell')[1].textContent);
  /** What the list's polite live regions say: the connection's, then the news'. */
  const said = () => Array.from(screen.getByRole('region', { name: 'Pets' }).querySelectorAll('[aria-live="polite"]'), (region) => region.textContent);
  const addHere = async (name: string) => {
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: name } });
    fireEvent.change(screen.getByLabelText('Category'), { target: { value: '1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add pet' }));
    await screen.findByText(new RegExp(`^Added ${name} `));
  };

  beforeEach(() => window.sessionStorage.clear());
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  it('lists each at once, after the others in id order, when every page is shown, and says so politely', async () => {
    open(pets(2));
    await following();
    await caughtUp();
    expect(said()).toEqual(['', '']);
    service.addElsewhere({ name: 'Rex', categoryId: 1 });
    await waitFor(() => expect(names()).toEqual(['Pet 1', 'Pet 2', 'Rex']));
    expect(said()).toEqual(['', 'Rex was added.']);
    service.addElsewhere({ name: 'Bo', categoryId: 1 });
    await waitFor(() => expect(names()).toEqual(['Pet 1', 'Pet 2', 'Rex', 'Bo']));
    expect(said()).toEqual(['', 'Bo was added.']);
    expect(screen.getByText('4 pets, all shown.')).toBeTruthy();
    expect(screen.queryAllByRole('alert')).toEqual([]);
    // Nothing more asked of the list: the stream brought them.
    expect(service.sent).toHaveLength(2);
  });

  it('counts those beyond the pages shown in a notice, which loads the rest and takes the person to the first new one', async () => {
    open(pets(45));
    await following();
    await waitFor(() => expect(rows()).toHaveLength(20));
    service.addElsewhere({ name: 'Rex', categoryId: 1 });
    expect(await screen.findByRole('button', { name: '1 new pet' })).toBeTruthy();
    expect(said()).toEqual(['', '1 new pet']);
    service.addElsewhere({ name: 'Bo', categoryId: 1 });
    expect(await screen.findByRole('button', { name: '2 new pets' })).toBeTruthy();
    expect(said()).toEqual(['', '2 new pets']);
    expect(rows()).toHaveLength(20);

    fireEvent.click(screen.getByRole('button', { name: '2 new pets' }));
    await waitFor(() => expect(document.activeElement?.textContent).toContain('Rex'));
    expect(names()).toEqual([...pets(45).map(({ name }) => name), 'Rex', 'Bo']);
    expect(document.activeElement).toBe(rows()[45]);
    expect(screen.queryByRole('button', { name: /new pet/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(said()).toEqual(['', '']);
    // The pages left, by the cursor to the last, as few as the service allows.
    expect(listReads()).toEqual([
      [null, null],
      ['20', '100'],
    ]);
  });

  it('lists the waiting ones when "Load more" reaches the last page', async () => {
    open(pets(25));
    await following();
    await waitFor(() => expect(rows()).toHaveLength(20));
    service.addElsewhere({ name: 'Rex', categoryId: 1 });
    await screen.findByRole('button', { name: '1 new pet' });
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(names().at(-1)).toBe('Rex'));
    expect(rows()).toHaveLength(26);
    expect(screen.queryByRole('button', { name: /new pet/ })).toBeNull();
  });

  /** Holds the next stream's opening until the returned function is called: the service fixes where it starts then. */
  const holdStream = () => {
    let start!: () => void;
    service.nextStream((stream) => new Promise<Response>((resolve) => (start = () => resolve(stream()))));
    return () => act(() => start());
  };

  it('lists a pet created after the list was read and before the stream started, which neither brings', async () => {
    open(pets(2));
    const start = holdStream();
    await waitFor(() => expect(names()).toEqual(['Pet 1', 'Pet 2']));
    await waitFor(() => expect(service.streams).toHaveLength(1));
    service.addElsewhere({ name: 'Rex', categoryId: 1 });
    service.addElsewhere({ name: 'Bo', categoryId: 2, status: PetStatus.Sold });
    let answer!: () => void;
    service.next(() => new Promise<Response>((resolve) => (answer = () => resolve(Response.json(service.pets)))));
    await start();
    // The stream starts after both: only the list read again brings them.
    expect(service.streams[0].url.searchParams.get('after')).toBeNull();
    await waitFor(() => expect(listReads()).toEqual([[null, null], [null, '100']]));
    // Quietly: while it is read, the list says what it holds, not that it loads.
    expect(screen.getByRole('table').getAttribute('aria-busy')).toBe('false');
    expect(screen.getByText('2 pets, all shown.')).toBeTruthy();
    await act(async () => answer());
    await waitFor(() => expect(names()).toEqual(['Pet 1', 'Pet 2', 'Rex', 'Bo']));
    expect(screen.getByText('4 pets, all shown.')).toBeTruthy();
    // Nothing announced as new: they were there before the page followed.
    expect(said()).toEqual(['', '']);
    service.addElsewhere({ name: 'Kit', categoryId: 1 });
    await waitFor(() => expect(names()).toEqual(['Pet 1', 'Pet 2', 'Rex', 'Bo', 'Kit']));
    expect(service.sent).toHaveLength(2);
  });

  it('reads again from the last page read, to the end, however many pages were created meanwhile', async () => {
    open(pets(30), { path: '/storefront/?status=available' });
    const start = holdStream();
    await waitFor(() => expect(rows()).toHaveLength(20));
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(rows()).toHaveLength(30));
    for (let index = 1; index <= 150; index += 1) service.addElsewhere({ name: `New ${index}`, categoryId: 1 });
    service.addElsewhere({ name: 'Sold one', categoryId: 1, status: PetStatus.Sold });
    await start();
    await waitFor(() => expect(rows()).toHaveLength(180));
    expect(names().slice(28, 31)).toEqual(['Pet 29', 'Pet 30', 'New 1']);
    expect(names().at(-1)).toBe('New 150');
    expect(listReads()).toEqual([
      [null, null],
      ['20', null],
      ['20', '100'],
      ['120', '100'],
    ]);
    expect(service.sent.every(({ url }) => url.searchParams.get('status') === 'available')).toBe(true);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('leaves a pet created before the stream started to the pages not yet loaded, which bring it', async () => {
    open(pets(25));
    const start = holdStream();
    await waitFor(() => expect(rows()).toHaveLength(20));
    service.addElsewhere({ name: 'Rex', categoryId: 1 });
    await start();
    await following();
    service.addElsewhere({ name: 'Bo', categoryId: 1 });
    expect(await screen.findByRole('button', { name: '1 new pet' })).toBeTruthy();
    // Nothing read again: the pages after the first are read when asked for.
    expect(listReads()).toEqual([[null, null]]);
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(names().slice(-2)).toEqual(['Rex', 'Bo']));
    expect(rows()).toHaveLength(27);
  });

  it('reads again after a page that was being read when the stream started, and not after one asked for since', async () => {
    open(pets(2));
    const start = holdStream();
    await waitFor(() => expect(names()).toEqual(['Pet 1', 'Pet 2']));
    // The sold page as the service read it, before the stream started: none.
    let answer!: () => void;
    const noneSold = () => new Response('[]', { status: 200, headers: { 'content-type': 'application/json' } });
    service.next(() => new Promise<Response>((resolve) => (answer = () => resolve(noneSold()))));
    fireEvent.change(screen.getByLabelText('Filter by status'), { target: { value: 'sold' } });
    await waitFor(() => expect(service.sent).toHaveLength(2));
    // Created after the sold page was read and before the stream started: in neither.
    service.addElsewhere({ name: 'Sold before', categoryId: 1, status: PetStatus.Sold });
    await start();
    await following();
    await act(async () => answer());
    await waitFor(() => expect(names()).toEqual(['Sold before']));
    expect(service.sent.map(({ url }) => url.search)).toEqual(['', '?status=sold', '?limit=100&status=sold']);

    fireEvent.change(screen.getByLabelText('Filter by status'), { target: { value: 'pending' } });
    await screen.findByText('No pending pets.');
    service.addElsewhere({ name: 'Pending after', categoryId: 1, status: PetStatus.Pending });
    await waitFor(() => expect(names()).toEqual(['Pending after']));
    expect(service.sent.map(({ url }) => url.search).slice(3)).toEqual(['?status=pending']);
  });

  it('ignores those that do not pass the filters', async () => {
    open([{ id: 1, name: 'Rex', categoryId: 2, status: PetStatus.Available }], { path: '/storefront/?status=available&name=rex&categoryId=2' });
    await following();
    await waitFor(() => expect(names()).toEqual(['Rex']));
    service.addElsewhere({ name: 'Bo', categoryId: 2 });
    service.addElsewhere({ name: 'T-Rex', categoryId: 2, status: PetStatus.Sold });
    service.addElsewhere({ name: 'Rexy', categoryId: 1 });
    service.addElsewhere({ name: 'Little REX', categoryId: 2 });
    // The events come in order: the last one listed, those before it were heard and passed over.
    await waitFor(() => expect(names()).toEqual(['Rex', 'Little REX']));
    expect(said()).toEqual(['', 'Little REX was added.']);
  });

  it('lists a pet added on this page once, though the form and the stream both tell of it', async () => {
    open(pets(1));
    await following();
    await waitFor(() => expect(names()).toEqual(['Pet 1']));
    await addHere('Rex');
    // A pet added elsewhere afterwards is heard after the one added here.
    service.addElsewhere({ name: 'Bo', categoryId: 1 });
    await waitFor(() => expect(names()).toEqual(['Pet 1', 'Rex', 'Bo']));
  });

  it('counts in the notice none of the pets added on this page', async () => {
    open(pets(25));
    await following();
    await waitFor(() => expect(rows()).toHaveLength(20));
    await addHere('Rex');
    service.addElsewhere({ name: 'Bo', categoryId: 1 });
    expect(await screen.findByRole('button', { name: '1 new pet' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '1 new pet' }));
    await waitFor(() => expect(document.activeElement?.textContent).toContain('Bo'));
    expect(names().slice(-3)).toEqual(['Pet 25', 'Rex', 'Bo']);
    expect(rows()).toHaveLength(27);
  });

  it('says nothing while it first connects, even after a failed try, nor on a keep-alive', async () => {
    open(pets(1), { stream: () => refusal(503, 'service_unavailable', 'The database is not reachable right now; retry shortly.') });
    await following();
    expect(service.streams).toHaveLength(2);
    service.keepAlive();
    service.addElsewhere({ name: 'Rex', categoryId: 1 });
    await screen.findByText('Rex was added.');
    expect(said()).toEqual(['', 'Rex was added.']);
    expect(screen.queryAllByRole('alert')).toEqual([]);
  });

  it('says in shop words when it loses touch and when it is back, and lists what was added meanwhile', async () => {
    open(pets(1));
    await following();
    let resume!: () => void;
    service.nextStream((stream) => new Promise<Response>((resolve) => (resume = () => resolve(stream()))));
    service.dropStreams();
    await waitFor(() => expect(said()).toEqual([LOST, '']));
    await waitFor(() => expect(service.streams).toHaveLength(2));
    service.addElsewhere({ name: 'Rex', categoryId: 1 });
    act(() => resume());
    await waitFor(() => expect(said()).toEqual([BACK, 'Rex was added.']));
    expect(names()).toEqual(['Pet 1', 'Rex']);
    // Resumed after the last event it had: the one added meanwhile, and only it.
    expect(service.streams.map(({ url }) => url.searchParams.get('after'))).toEqual([null, '0']);
    expect(screen.queryAllByRole('alert')).toEqual([]);
  });

  it('lists afresh and follows from now on when the service no longer has the events it missed', async () => {
    open(pets(1));
    await following();
    await caughtUp();
    service.addElsewhere({ name: 'Rex', categoryId: 1 });
    await waitFor(() => expect(names()).toEqual(['Pet 1', 'Rex']));
    service.nextStream(() => eventsReset(5));
    service.dropStreams();
    service.addElsewhere({ name: 'Bo', categoryId: 1 });
    await waitFor(() => expect(names()).toEqual(['Pet 1', 'Rex', 'Bo']));
    await waitFor(() => expect(service.openStreams()).toHaveLength(1));
    expect(service.streams.map(({ url }) => url.searchParams.get('after'))).toEqual([null, '1', null]);
    // Listed afresh from the first page; read again after it unless it was asked for once the new stream had started.
    const [, before, reload, ...after] = listReads();
    expect([before, reload]).toEqual([[null, '100'], [null, null]]);
    expect(after).toEqual(after.length === 0 ? [] : [[null, '100']]);
    expect(said()[0]).toBe(BACK);
  });

  it('says plainly that new pets will not show by themselves when the stream is refused for good', async () => {
    open(pets(1), { stream: () => refusal(401, 'unauthorized', 'Missing or invalid API key.') });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'New pets added elsewhere will not show here by themselves. The API key was refused. Check that it was typed in full, or ask for a new key.',
    );
    expect(names()).toEqual(['Pet 1']);
    expect(service.streams).toHaveLength(1);
  });

  it('opens no stream for a key that does not work', async () => {
    open(pets(1), { list: () => refusal(401, 'unauthorized', 'Missing or invalid API key.') });
    await screen.findByRole('alert');
    expect(service.streams).toEqual([]);
  });

  it('closes the stream when the key changes, when disconnected, and when the page goes', async () => {
    const { unmount } = open(pets(1));
    await following();
    fireEvent.change(screen.getByLabelText('API key'), { target: { value: 'pk_test_other_key_0123456789' } });
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(service.streams).toHaveLength(2));
    await following();
    expect(service.streams.map(({ open, headers, signal }) => [open, signal?.aborted, headers.get('authorization')])).toEqual([
      [false, true, `Bearer ${KEY}`],
      [true, false, 'Bearer pk_test_other_key_0123456789'],
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Disconnect' }));
    await waitFor(() => expect(service.openStreams()).toEqual([]));
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(service.streams).toHaveLength(3));
    await following();
    unmount();
    expect(service.openStreams()).toEqual([]);
    expect(service.streams.every(({ signal }) => signal?.aborted)).toBe(true);
  });
});
