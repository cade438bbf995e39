import { parseScopes, scopeList } from './scope-list';

describe(parseScopes.name, () => {
  it.each([
    ['pets:read', ['pets:read']],
    ['pets:write,pets:read', ['pets:read', 'pets:write']],
    [' pets:read , pets:write ', ['pets:read', 'pets:write']],
  ])('reads %j in the contract’s order', (text, scopes) => expect(parseScopes(text)).toEqual(scopes));

  it.each([
    ['', 'an empty scope in ""; name one or more of pets:read, pets:write.'],
    ['pets:read,', 'an empty scope in "pets:read,"; name one or more of pets:read, pets:write.'],
    ['pets:read, ,pets:write', 'an empty scope in "pets:read, ,pets:write"; name one or more of pets:read, pets:write.'],
    ['pets:raed', 'unknown scope "pets:raed"; the scopes are pets:read, pets:write.'],
    ['Pets:Read', 'unknown scope "Pets:Read"; the scopes are pets:read, pets:write.'],
    ['pets:read,pets:read', 'scope "pets:read" is named twice.'],
  ])('refuses %j, naming what is wrong', (text, message) => expect(() => parseScopes(text)).toThrow(new Error(message)));
});

describe('scopeList', () => {
  it('stores scopes as one space-separated string, as OAuth writes them', () => {
    expect(scopeList.to(['pets:read', 'pets:write'])).toBe('pets:read pets:write');
    expect(scopeList.to(null)).toBeNull();
  });

  it('reads back only the scopes it knows, so that a stored typo grants nothing', () => {
    expect(scopeList.from('pets:read pets:write')).toEqual(['pets:read', 'pets:write']);
    expect(scopeList.from('pets:read pets:admin  pets:writ')).toEqual(['pets:read']);
    expect(scopeList.from('')).toEqual([]);
    expect(scopeList.from(null)).toBeNull();
  });
});
