import { apiBaseUrl, forgetConnection, saveConnection, savedConnection } from './connection';

describe('the connection', () => {
  beforeEach(() => window.sessionStorage.clear());

  it("talks to the API of the page's own origin", () => {
    expect(apiBaseUrl({ origin: 'https://pets.example.com' })).toBe('https://pets.example.com/v1');
  });

  it('is kept for the tab (sessionStorage), read back, and forgotten', () => {
    expect(savedConnection()).toBeUndefined();
    saveConnection({ apiKey: 'pk_test_key_0123456789' });
    expect(savedConnection()).toEqual({ apiKey: 'pk_test_key_0123456789' });
    expect(JSON.parse(window.sessionStorage.getItem('petstore.connection') ?? '')).toEqual({ apiKey: 'pk_test_key_0123456789' });
    expect(window.localStorage.length).toBe(0);
    forgetConnection();
    expect(savedConnection()).toBeUndefined();
  });

  it('ignores what it cannot read', () => {
    window.sessionStorage.setItem('petstore.connection', '{not json');
    expect(savedConnection()).toBeUndefined();
    window.sessionStorage.setItem('petstore.connection', '{"baseUrl":"http://localhost:3000/v1"}');
    expect(savedConnection()).toBeUndefined();
  });

  it('reads the key of an entry an earlier version kept with an address, and leaves the address out', () => {
    window.sessionStorage.setItem('petstore.connection', JSON.stringify({ baseUrl: 'http://127.0.0.1:3000/v1', apiKey: 'pk_test_key_0123456789' }));
    expect(savedConnection()).toEqual({ apiKey: 'pk_test_key_0123456789' });
  });
});
