import { passesFilters, type Pet, PetStatus } from '@petstore/contract';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { PetService } from '../testing/pet-service';
import { App } from './app';
import { saveConnection } from './connection';
import { SEARCH_PAUSE_MS } from './search-fields';

// Filters changed faster than a search pauses, in many orders: each change must compose with those still pending, so
// that in the end the controls, the address and the list's last request all hold what was typed and chosen last. The
// clock is Jest's: the steps follow one another at machine speed, and the pauses between some of them are exact.

type Control = 'Search by name' | 'Filter by category' | 'Filter by status';
type Step = { control: Control; value: string } | { pause: number };

const VALUES: Record<Control, string[]> = {
  'Search by name': ['r', 'rex', 'T-', 'élo', 'b', '', ' '],
  // Only categories the service takes: one it refuses is never sent, which would make what is sent depend on the pauses.
  'Filter by category': ['1', '2', '3', ''],
  'Filter by status': ['available', 'pending', 'sold', ''],
};
const CONTROLS = Object.keys(VALUES) as Control[];
/** Shorter than a search's pause, just short of it, and long enough for it: a search pending or sent between steps. */
const PAUSES = [0, 150, SEARCH_PAUSE_MS - 1, SEARCH_PAUSE_MS];

const STATUSES = [PetStatus.Available, PetStatus.Pending, PetStatus.Sold];
const STORED: Pet[] = Array.from({ length: 12 }, (_, index) => ({
  id: index + 1,
  name: ['Rex', 'T-Rex', 'Éloïse', 'Bo'][index % 4],
  categoryId: 1 + (index % 3),
  status: STATUSES[Math.floor(index / 4)],
}));

/** A small seeded generator (mulberry32): the same orders on every run, many of them. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function stepsFrom(next: () => number): Step[] {
  const pick = <T,>(values: readonly T[]) => values[Math.floor(next() * values.length)];
  return Array.from({ length: 3 + Math.floor(next() * 8) }, () => {
    if (next() < 0.2) return { pause: pick(PAUSES) };
    const control = pick(CONTROLS);
    return { control, value: pick(VALUES[control]) };
  });
}

const name = (steps: Step[]) => steps.map((step) => ('pause' in step ? `${step.pause} ms` : `${step.control.split(' ').at(-1)}=${JSON.stringify(step.value)}`)).join(', ');

const ISSUE: Step[][] = [
  // The issue's own: a name typed, the status changed before the search is sent.
  [{ control: 'Search by name', value: 'rex' }, { control: 'Filter by status', value: 'sold' }],
  [{ control: 'Search by name', value: 'rex' }, { pause: 150 }, { control: 'Filter by status', value: 'sold' }],
  [{ control: 'Filter by status', value: 'sold' }, { control: 'Search by name', value: 'rex' }],
  [{ control: 'Search by name', value: 'r' }, { control: 'Filter by category', value: '2' }, { control: 'Filter by status', value: 'available' }, { control: 'Search by name', value: 'rex' }],
  // The search sent, then changed again with a choice in between.
  [{ control: 'Search by name', value: 'rex' }, { pause: SEARCH_PAUSE_MS }, { control: 'Filter by status', value: 'pending' }, { control: 'Search by name', value: 'b' }],
];
const next = random(60);
const CASES = [...ISSUE, ...Array.from({ length: 40 }, () => stepsFrom(next))];

describe('filters changed at machine speed', () => {
  let service: PetService;
  const realFetch = globalThis.fetch;

  beforeEach(() => {
    jest.useFakeTimers();
    service = new PetService(STORED.map((pet) => ({ ...pet })));
    globalThis.fetch = service.fetch as typeof fetch;
    window.sessionStorage.clear();
    window.history.replaceState(null, '', '/storefront/');
    saveConnection({ apiKey: 'pk_test_key_0123456789' });
  });
  afterEach(() => {
    jest.useRealTimers();
    globalThis.fetch = realFetch;
  });

  const control = (label: Control) => screen.getByLabelText(label) as HTMLInputElement | HTMLSelectElement;
  const names = () =>
    within(screen.getByRole('table'))
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell')[1].textContent);
  /** The filters of the last list request: its page size left out (the list read again once the stream starts asks for the largest). */
  const lastListQuery = () => {
    const query = Object.fromEntries(service.sent.filter(({ method }) => method === 'GET').at(-1)?.url.searchParams ?? []);
    delete query.limit;
    return query;
  };

  it.each(CASES.map((steps) => [name(steps), steps]))('%s: the controls, the address and the last request agree', async (_, steps) => {
    render(<App />);
    await screen.findByText(/^Connected/);
    const last: Record<Control, string> = { 'Search by name': '', 'Filter by category': '', 'Filter by status': '' };
    for (const step of steps) {
      if ('pause' in step) {
        await act(() => jest.advanceTimersByTimeAsync(step.pause));
      } else {
        fireEvent.change(control(step.control), { target: { value: step.value } });
        last[step.control] = step.value;
      }
    }
    // What every step together asks for, as the service's query: in the contract's order, the blank left out.
    const query = Object.fromEntries(
      [
        ['status', last['Filter by status']],
        ['name', last['Search by name']],
        ['categoryId', last['Filter by category']],
      ].filter(([, value]) => /\S/u.test(value)),
    );
    const filters = { ...query, ...(query.categoryId && { categoryId: Number(query.categoryId) }) };
    const listed = STORED.filter((pet) => passesFilters(pet, filters)).map((pet) => pet.name);

    await act(() => jest.advanceTimersByTimeAsync(SEARCH_PAUSE_MS));
    await waitFor(() => expect(Object.fromEntries(new URLSearchParams(window.location.search))).toEqual(query));
    await waitFor(() => expect(lastListQuery()).toEqual(query));
    await waitFor(() => {
      expect(screen.getByRole('table').getAttribute('aria-busy')).toBe('false');
      expect(names()).toEqual(listed);
    });
    expect(CONTROLS.map((label) => control(label).value)).toEqual(CONTROLS.map((label) => last[label]));
  });
});
