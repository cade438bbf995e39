import { nextCursorFrom } from './link-header';

describe(nextCursorFrom.name, () => {
  it.each([
    ['<https://a.example/v1/pets?limit=2&cursor=abc>; rel="next"', 'abc'],
    ['<https://a.example/v1/pets?cursor=x%2By>; rel=next', 'x+y'],
    ['</v1/pets>; rel="successor-version", <https://a.example/v1/pets?cursor=n1>; rel="next"', 'n1'],
    ['<https://a.example/v1/pets?cursor=p>; rel="prev next"', 'p'],
    ['<https://a.example/v1/pets?cursor=q>; rel="next prev"', 'q'],
    ['<https://a.example/v1/pets?cursor=p>; rel="prev",<https://a.example/v1/pets?cursor=n2>; rel="next"', 'n2'],
    ['<https://a.example/v1/pets?cursor=t>;rel=next', 't'],
    ['<https://a.example/v1/pets?cursor=u>; rel="next" ; title="more"', 'u'],
  ])('reads the next cursor of %s', (link, cursor) => expect(nextCursorFrom(link)).toBe(cursor));

  it.each([
    null,
    '',
    '</v1/pets>; rel="successor-version"',
    '<https://a.example/v1/pets?cursor=p>; rel="prev"',
    'garbage',
    'see <https://a.example/v1/pets?cursor=s>; rel="next"',
    '<https://a.example/v1/pets?cursor=w>; rel="nextpage"',
    '<http://[::1/v1/pets?cursor=x>; rel="next"',
    // The first next link decides, even when it cannot be read.
    '<http://[::1/v1/pets?cursor=x>; rel="next", <https://a.example/v1/pets?cursor=y>; rel="next"',
  ])('finds none in %j', (link) => expect(nextCursorFrom(link)).toBeNull());
});
