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
    expect(said()).toEqual(['', '']);
    service.addElsewhere({ name: 'Rex', categoryId: 1 });
    await waitFor(() => expect(names()).toEqual(['Pet 1', 'Pet 2', 'Rex']));
    expect(said()).toEqual(['', 'Rex was added.']);
    service.addElsewhere({ name: 'Bo', categoryId: 1 });
    await waitFor(() => expect(names()).toEqual(['Pet 1', 'Pet 2', 'Rex', 'Bo']));
    expect(said()).toEqual(['', 'Bo was added.']);
    expect(screen.getByText('4 pets, all shown.')).toBeTruthy();
    expect(screen.queryAllByRole('alert')).toEqual([]);
    // Nothing asked of the list: the stream brought them.
    expect(service.sent).toHaveLength(1);
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
    expect(service.sent.map(({ url }) => [url.searchParams.get('cursor'), url.searchParams.get('limit')])).toEqual([
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
    service.addElsewhere({ name: 'Rex', categoryId: 1 });
    await waitFor(() => expect(names()).toEqual(['Pet 1', 'Rex']));
    service.nextStream(() => eventsReset(5));
    service.dropStreams();
    service.addElsewhere({ name: 'Bo', categoryId: 1 });
    await waitFor(() => expect(names()).toEqual(['Pet 1', 'Rex', 'Bo']));
    await waitFor(() => expect(service.openStreams()).toHaveLength(1));
    expect(service.streams.map(({ url }) => url.searchParams.get('after'))).toEqual([null, '1', null]);
    expect(service.sent.map(({ url }) => url.searchParams.get('cursor'))).toEqual([null, null]);
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
