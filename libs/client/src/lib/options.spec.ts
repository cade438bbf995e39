import { baseUrlFor } from './options';

describe(baseUrlFor.name, () => {
  const environments = { production: 'https://petstore.example.com/v1', staging: 'https://staging.petstore.example.com/v1/' };

  it('names the configured address of each environment', () => {
    expect(baseUrlFor('production', environments)).toBe('https://petstore.example.com/v1');
    expect(baseUrlFor('staging', environments)).toBe('https://staging.petstore.example.com/v1/');
  });

  it('refuses an environment that is not configured or does not end in /v1', () => {
    expect(() => baseUrlFor('staging', { production: environments.production })).toThrow(/No staging address/);
    expect(() => baseUrlFor('production', { production: 'https://petstore.example.com' })).toThrow(TypeError);
    expect(() => baseUrlFor('production', { production: 'https://petstore.example.com/v1/pets' })).toThrow(/No production address/);
  });
});
