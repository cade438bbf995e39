import { routeTemplate } from './route-template';

describe(routeTemplate.name, () => {
  it('writes path parameters as OpenAPI does', () => {
    expect(routeTemplate('/v1/pets/:petId')).toBe('/v1/pets/{petId}');
  });

  it('leaves a route without parameters as it is', () => {
    expect(routeTemplate('/v1/pets')).toBe('/v1/pets');
    expect(routeTemplate('/docs/*')).toBe('/docs/*');
  });

  it('writes every parameter of a route', () => {
    expect(routeTemplate('/v1/owners/:ownerId/pets/:pet_id')).toBe('/v1/owners/{ownerId}/pets/{pet_id}');
  });
});
