import { inCliWords } from './deprecation-words';

describe('inCliWords', () => {
  it("says the client's deprecation notice with the command, the date and the command to use instead", () => {
    const warning = 'petstore: getPet is deprecated by the service and will be removed after Thu, 05 Dec 2030 00:00:00 GMT; use /v1/pets instead.';

    expect(inCliWords(warning, 'getPet', 'petstore pets get')).toBe('petstore: "petstore pets get" is deprecated by the service and stops working after 2030-12-05; use "petstore pets list" instead.');
  });

  it('says what the service said, and no more, when it gives no date or successor', () => {
    expect(inCliWords('petstore: getPet is deprecated by the service.', 'getPet', 'petstore pets get')).toBe(
      'petstore: "petstore pets get" is deprecated by the service; use "petstore pets list" instead.',
    );
    expect(inCliWords('petstore: createPet is deprecated by the service and will be removed after soon.', 'createPet', 'petstore pets add')).toBe(
      'petstore: "petstore pets add" is deprecated by the service.',
    );
  });

  it("passes other warnings, and another operation's notice, as they are", () => {
    expect(inCliWords('petstore: something else.', 'getPet', 'petstore pets get')).toBe('petstore: something else.');
    const other = 'petstore: listPets is deprecated by the service.';
    expect(inCliWords(other, 'getPet', 'petstore pets get')).toBe(other);
  });
});
