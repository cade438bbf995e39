import { type EveryKind, EVERY_KIND_FIELDS } from '@petstore/testing/every-kind';
import { columnName, readDate, rowMappingOf, toPet, valuesToPet } from './pet-row';

describe('pet rows', () => {
  describe(rowMappingOf.name, () => {
    const rows = rowMappingOf<EveryKind, Omit<EveryKind, 'id'>>(EVERY_KIND_FIELDS);

    it('names each column after its field in snake case, and writes every field the service does not assign', () => {
      expect(rows.columnNames).toEqual(['id', 'nick_name', 'owner_id', 'size', 'born_on']);
      expect(rows.insertColumns).toEqual(['nick_name', 'owner_id', 'size', 'born_on']);
      expect(rows.insertPostgresTypes).toEqual(['varchar', 'bigint', 'varchar', 'date']);
      expect(rows.selectList('s')).toBe('s.id AS "id", s.nick_name AS "nickName", s.owner_id AS "ownerId", s.size AS "size", s.born_on AS "bornOn"');
    });

    it('writes an optional field left out as NULL, by row and by column', () => {
      const specimen = { nickName: 'Rex', ownerId: 3 };
      expect(rows.insertValues(specimen)).toEqual(['Rex', 3, null, null]);
      expect(rows.insertColumnValues([specimen, { ...specimen, bornOn: '2020-02-29' }])).toEqual([
        ['Rex', 'Rex'],
        [3, 3],
        [null, null],
        [null, '2020-02-29'],
      ]);
    });

    it('reads every kind back, 64-bit columns given as strings and dates given as Dates included', () => {
      const row = { id: '7', nickName: 'Rex', ownerId: '9', size: 'large', bornOn: new Date(2020, 1, 29) };
      expect(rows.toRecord(row)).toStrictEqual({ id: 7, nickName: 'Rex', ownerId: 9, size: 'large', bornOn: '2020-02-29' });
      expect(rows.valuesToRecord([7, 'Rex', 9, 'small', '0001-01-01'])).toStrictEqual({ id: 7, nickName: 'Rex', ownerId: 9, size: 'small', bornOn: '0001-01-01' });
    });

    it.each([null, undefined])('leaves out an optional field whose column is %s, rather than serving it empty', (empty) => {
      const record = rows.toRecord({ id: 7, nickName: 'Rex', ownerId: 2, size: empty, bornOn: empty });
      expect(record).toStrictEqual({ id: 7, nickName: 'Rex', ownerId: 2 });
    });

    it('never leaves out a required field', () => {
      expect(() => rows.toRecord({ id: null, nickName: 'Rex', ownerId: 2, size: 'small', bornOn: null })).toThrow();
    });

    it('serves each kind by its JSON type, requiring exactly the fields the list does not make optional', () => {
      expect(rows.jsonSchema).toEqual({
        type: 'object',
        properties: {
          id: { type: 'integer' },
          nickName: { type: 'string' },
          ownerId: { type: 'integer' },
          size: { type: 'string', enum: ['small', 'large'] },
          bornOn: { type: 'string' },
        },
        required: ['id', 'nickName', 'ownerId'],
      });
    });
  });

  describe(readDate.name, () => {
    it.each([
      [new Date(2024, 0, 1), '2024-01-01'],
      [new Date(2024, 11, 31, 0, 0, 0), '2024-12-31'],
      ['1999-07-04', '1999-07-04'],
    ])('reads %p as %s', (value, text) => expect(readDate(value)).toBe(text));

    it('reads a year below 1000 with four digits', () => {
      const date = new Date(2000, 4, 6);
      date.setFullYear(33);
      expect(readDate(date)).toBe('0033-05-06');
    });
  });

  it.each([
    ['id', 'id'],
    ['categoryId', 'category_id'],
    ['birthDate', 'birth_date'],
  ])('spells the field %s as the column %s', (field, column) => expect(columnName(field)).toBe(column));

  it('maps the Pet with the contract’s list: a row of each database', () => {
    expect(toPet({ id: '7', name: 'Rex', categoryId: '9007199254740991', status: 'sold' })).toStrictEqual({ id: 7, name: 'Rex', categoryId: 9_007_199_254_740_991, status: 'sold' });
    expect(valuesToPet([7, 'Rex', 2, null])).toStrictEqual({ id: 7, name: 'Rex', categoryId: 2 });
  });
});
