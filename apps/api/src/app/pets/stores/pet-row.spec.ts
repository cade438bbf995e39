import { PET_COLUMN_NAMES, toPet, valuesToPet } from './pet-row';

describe('pet rows', () => {
  describe(toPet.name, () => {
    it('reads every field, 64-bit columns given as strings included', () => {
      expect(toPet({ id: '7', name: 'Rex', categoryId: '9007199254740991', status: 'sold' })).toEqual({
        id: 7,
        name: 'Rex',
        categoryId: 9_007_199_254_740_991,
        status: 'sold',
      });
    });

    it.each([null, undefined])('leaves out an optional field whose column is %s, rather than serving it empty', (empty) => {
      const pet = toPet({ id: 7, name: 'Rex', categoryId: 2, status: empty });
      expect(pet).toEqual({ id: 7, name: 'Rex', categoryId: 2 });
      expect('status' in pet).toBe(false);
    });

    it('never leaves out a required field', () => {
      expect(() => toPet({ id: null, name: 'Rex', categoryId: 2, status: 'sold' })).toThrow();
    });
  });

  describe(valuesToPet.name, () => {
    it('reads the values in the order of the columns, leaving out an optional one that is null', () => {
      expect(PET_COLUMN_NAMES).toEqual(['id', 'name', 'category_id', 'status']);
      expect(valuesToPet([7, 'Rex', 2, null])).toEqual({ id: 7, name: 'Rex', categoryId: 2 });
    });
  });
});
