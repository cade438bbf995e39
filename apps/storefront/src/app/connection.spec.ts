import { defaultBaseUrl, forgetConnection, saveConnection, savedConnection } from './connection';

describe('the connection', () => {
  beforeEach(() => window.sessionStorage.clear());

  it("defaults to the API of the page's own origin", () => {
    expect(defaultBaseUrl({ origin: 'https://pets.example.com' })).toBe('https://pets.example.com/v1');
  });

  it('is kept for the tab (sessionStorage), read back, and forgotten', () => {
    expect(savedConnection()).toBeUndefined();
    saveConnection({ baseUrl: 'http://localhost:3000/v1', apiKey: 'pk_test_key_0123456789' });
    expect(savedConnection()).toEqual({ baseUrl: 'http://localhost:3000/v1', apiKey: 'pk_test_key_0123456789' });
    expect(window.localStorage.length).toBe(0);
    forgetConnection();
    expect(savedConnection()).toBeUndefined();
  });

  it('ignores what it cannot read', () => {
    window.sessionStorage.setItem('petstore.connection', '{not json');
    expect(savedConnection()).toBeUndefined();
    window.sessionStorage.setItem('petstore.connection', '{"baseUrl":1}');
    expect(savedConnection()).toBeUndefined();
  });
});
