import { publicBaseUrl } from './public-base-url';

describe(publicBaseUrl.name, () => {
  it('is PUBLIC_BASE_URL when it is set, wherever the process listens', () => {
    expect(publicBaseUrl({ publicBaseUrl: 'https://pets.example.com/v1', port: 3000 }, { address: '0.0.0.0', family: 'IPv4', port: 4123 })).toBe(
      'https://pets.example.com/v1',
    );
  });

  it.each([
    ['0.0.0.0', 'IPv4', 'http://localhost:4123/v1'],
    ['::', 'IPv6', 'http://localhost:4123/v1'],
    ['127.0.0.1', 'IPv4', 'http://127.0.0.1:4123/v1'],
    ['10.1.2.3', 'IPv4', 'http://10.1.2.3:4123/v1'],
    ['::1', 'IPv6', 'http://[::1]:4123/v1'],
  ])('otherwise names the address it listens on: %s', (address, family, expected) => {
    expect(publicBaseUrl({ port: 0 }, { address, family, port: 4123 })).toBe(expected);
  });

  it('before listening, names the configured port on localhost', () => {
    expect(publicBaseUrl({ port: 3000 })).toBe('http://localhost:3000/v1');
    expect(publicBaseUrl({ port: 8080 }, null)).toBe('http://localhost:8080/v1');
  });
});
