import { nameSearchKey } from './pet-search';

describe(nameSearchKey.name, () => {
  it.each([
    ['Straße', 'strasse'],
    ['ＲＥＸ', 'rex'],
    ['ﬁdo', 'fido'],
    ['Éloïse', 'éloïse'],
    // Lower-casing writes the final sigma where a word ends, in a name and in a piece of one alike: one sigma here.
    ['Ὀδυσσεύς', 'ὀδυσσεύσ'],
    ['ΟΔΥΣΣΕΥΣ', 'οδυσσευσ'],
    ['ὈΔΥΣ', 'ὀδυσ'],
    ['ὀδυσσ', 'ὀδυσσ'],
    ['Ευσ', 'ευσ'],
    ['ς', 'σ'],
    ['Ζευς και Ήρα', 'ζευσ και ήρα'],
  ])('%j is searched as %j', (name, key) => {
    expect(nameSearchKey(name)).toBe(key);
  });

  it('finds a name by any piece of it, whatever its case and wherever a sigma falls', () => {
    const name = nameSearchKey('Ὀδυσσεύς');
    for (const piece of ['ὈΔΥΣ', 'ὀδυσσ', 'ΣΣΕΎΣ', 'εύς', 'Σ']) expect({ piece, found: name.includes(nameSearchKey(piece)) }).toEqual({ piece, found: true });
    expect(nameSearchKey('Ευσταθιος').includes(nameSearchKey('Ευσ'))).toBe(true);
  });
});
