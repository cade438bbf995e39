import { PetStatus } from '@petstore/contract';
import { nextPageLink } from './next-page-link';

describe(nextPageLink.name, () => {
  it('builds an absolute RFC 8288 link from the public address, keeping limit and status', () => {
    expect(nextPageLink('https://api.example.com/v1', { limit: 5, status: PetStatus.Sold }, 'abc')).toBe(
      '<https://api.example.com/v1/pets?limit=5&status=sold&cursor=abc>; rel="next"',
    );
  });

  it('states the default limit explicitly and leaves out an absent status', () => {
    expect(nextPageLink('http://localhost:3000/v1', {}, 'xyz')).toBe('<http://localhost:3000/v1/pets?limit=20&cursor=xyz>; rel="next"');
  });

  it('keeps the name and category filters, a space as %20 and every other character percent-encoded', () => {
    expect(nextPageLink('http://localhost:3000/v1', { limit: 2, name: 'Mr Whiskers+1 & Zoë', categoryId: 7, status: PetStatus.Available }, 'c')).toBe(
      '<http://localhost:3000/v1/pets?limit=2&status=available&name=Mr%20Whiskers%2B1%20%26%20Zo%C3%AB&categoryId=7&cursor=c>; rel="next"',
    );
  });
});
