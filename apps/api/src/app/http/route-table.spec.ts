import { RouteTable } from './route-table';

describe(RouteTable.name, () => {
  const sut = new RouteTable();
  sut.add('GET', '/v1/pets');
  sut.add('HEAD', '/v1/pets');
  sut.add('POST', '/v1/pets');
  sut.add('GET', '/v1/pets/:petId');

  it.each([
    ['/v1/pets', ['GET', 'HEAD', 'POST']],
    ['/v1/pets/12', ['GET']],
    ['/v1/pets/abc', ['GET']],
    ['/v1/nope', []],
    ['/v1/pets/1/2', []],
  ])('allows on %s: %j', (path, methods) => expect(sut.allowedMethods(path)).toEqual(methods));
});
