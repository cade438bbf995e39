import { nextCursorFrom } from './link-header';

describe(nextCursorFrom.name, () => {
  it.each([
    ['<https://a.example/v1/pets?limit=2&cursor=abc>; rel="next"', 'abc'],
    ['<https://a.example/v1/pets?cursor=x%2By>; rel=next', 'x+y'],
    ['</v1/pets>; rel="successor-version", <https://a.example/v1/pets?cursor=n1>; rel="next"', 'n1'],
    ['<https://a.example/v1/pets?cursor=p>; rel="prev next"', 'p'],
  ])('reads the next cursor of %s', (link, cursor) => expect(nextCursorFrom(link)).toBe(cursor));

  it.each([null, '', '</v1/pets>; rel="successor-version"', '<https://a.example/v1/pets?cursor=p>; rel="prev"', 'garbage'])(
    'finds none in %j',
    (link) => expect(nextCursorFrom(link)).toBeNull(),
  );
});
