import { readTextTable } from './text-table';

describe(readTextTable.name, () => {
  it('reads each cell under its header, a header of two words included, leaving out empty cells', () => {
    const table = 'ID  NAME         STATUS     BIRTH DATE\n1   Rex          available  2020-01-02\n22  Mr Whiskers  sold\n';
    expect(readTextTable(table)).toEqual([
      { ID: '1', NAME: 'Rex', STATUS: 'available', 'BIRTH DATE': '2020-01-02' },
      { ID: '22', NAME: 'Mr Whiskers', STATUS: 'sold' },
    ]);
  });

  it('reads a row out of line as the wrong cells', () => {
    expect(readTextTable('ID  NAME\n1  Rex\n')).toEqual([{ ID: '1  R', NAME: 'ex' }]);
  });

  it('reads a header alone as no rows', () => expect(readTextTable('ID  NAME\n')).toEqual([]));
});
