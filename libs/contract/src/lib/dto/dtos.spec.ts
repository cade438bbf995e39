import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { ErrorDto } from './error.dto';
import { ListPetsQueryDto } from './list-pets-query.dto';
import { NewPetDto } from './new-pet.dto';
import { PetDto } from './pet.dto';

// The decorated classes against the committed OpenAPI document (libs/contract/openapi/openapi.json), which the API gate
// holds to every release: what each class says of a property is what the document says, word for word.
type Schema = Record<string, unknown> & { properties?: Record<string, Schema>; required?: string[] };
const DOCUMENT = JSON.parse(readFileSync(join(__dirname, '../../../openapi/openapi.json'), 'utf8')) as {
  components: { schemas: Record<string, Schema> };
  paths: { '/pets': { get: { parameters: Array<{ name: string; description: string; required: boolean; schema: Schema }> } } };
};
const SCHEMAS = DOCUMENT.components.schemas;
/** What a schema's keywords say, the ones both sides spell alike. */
const KEYWORDS = ['description', 'type', 'format', 'minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'example', 'default'];
// An enum's type is its own schema's, which the document refers to ($ref): compared by its values instead.
// A type left to reflection is the property's constructor (String): the document spells it by name.
const keywordsOf = (schema: Record<string, unknown>) =>
  Object.fromEntries(
    KEYWORDS.filter((key) => schema[key] !== undefined && !(key === 'type' && schema.enum)).map((key) => [key, typeof schema[key] === 'function' ? (schema[key] as () => unknown).name.toLowerCase() : schema[key]]),
  );
/** Where @nestjs/swagger's ApiProperty keeps what it was told (DECORATORS.API_MODEL_PROPERTIES, not exported). */
const API_MODEL_PROPERTIES = 'swagger/apiModelProperties';
const declared = (dto: abstract new () => unknown, property: string) =>
  Reflect.getMetadata(API_MODEL_PROPERTIES, dto.prototype, property) as Record<string, unknown> & { required?: boolean; enum?: unknown };

describe('the decorated classes, against the committed document', () => {
  it.each([
    ['NewPet', NewPetDto],
    ['Pet', PetDto],
    ['Error', ErrorDto],
  ] as const)('declare each property of %s as the document does, and which are required', (name, dto) => {
    const schema = SCHEMAS[name];
    for (const [property, documented] of Object.entries(schema.properties ?? {})) {
      const declaration = declared(dto, property);
      expect({ property, ...keywordsOf(declaration) }).toEqual({ property, ...keywordsOf(documented) });
      // An enum is published as its own schema ($ref), with the same values.
      const reference = ((documented.allOf as Schema[] | undefined)?.[0] ?? documented).$ref as string | undefined;
      if (reference) {
        const enumName = reference.split('/').at(-1) as string;
        expect({ enumName: declaration.enumName, values: Object.values(declaration.enum as object) }).toEqual({ enumName, values: SCHEMAS[enumName].enum });
      }
      expect({ property, required: declaration.required !== false }).toEqual({ property, required: (schema.required ?? []).includes(property) });
    }
  });

  it("declares listPets' query parameters as the document does", () => {
    for (const { name, description, required, schema } of DOCUMENT.paths['/pets'].get.parameters) {
      const declaration = declared(ListPetsQueryDto, name);
      expect({ name, ...keywordsOf(declaration), required: declaration.required }).toEqual({ name, description, ...keywordsOf(schema), required });
    }
  });
});

/** The properties `plain` is refused for, as the service's validation pass finds them, and the object it becomes. */
function validated<T extends object>(dto: new () => T, plain: object): { refused: string[]; value: T } {
  const value = plainToInstance(dto, plain);
  return { refused: validateSync(value).map(({ property }) => property), value };
}

describe(ListPetsQueryDto.name, () => {
  it('takes a query of plain base-10 digits as numbers, and leaves out what was not sent', () => {
    expect(validated(ListPetsQueryDto, {})).toEqual({ refused: [], value: {} });
    const { refused, value } = validated(ListPetsQueryDto, { limit: '25', categoryId: '31', status: 'sold', name: 'Rex', cursor: 'cDEuNDI' });
    expect(refused).toEqual([]);
    expect({ ...value }).toEqual({ limit: 25, categoryId: 31, status: 'sold', name: 'Rex', cursor: 'cDEuNDI' });
    expect(validated(ListPetsQueryDto, { limit: undefined, name: undefined }).refused).toEqual([]);
  });

  it('reads only a whole number filter as a number: a name of digits stays the text it is', () => {
    expect(validated(ListPetsQueryDto, { name: '101', categoryId: '101' })).toEqual({ refused: [], value: { name: '101', categoryId: 101 } });
  });

  it.each([
    [{ limit: '0' }, ['limit']],
    [{ limit: '101' }, ['limit']],
    [{ limit: '1e1' }, ['limit']],
    [{ limit: ' 5' }, ['limit']],
    [{ limit: '5.0' }, ['limit']],
    [{ limit: '' }, ['limit']],
    [{ limit: ['5', '6'] }, ['limit']],
    [{ status: 'Sold' }, ['status']],
    [{ categoryId: '0' }, ['categoryId']],
    [{ categoryId: '9007199254740992' }, ['categoryId']],
    [{ categoryId: '-3' }, ['categoryId']],
    [{ name: '' }, ['name']],
    [{ name: '   ' }, ['name']],
    [{ name: 'x'.repeat(101) }, ['name']],
    [{ cursor: ['a', 'b'] }, ['cursor']],
    [{ limit: 'x', status: 'lost', name: '', categoryId: 'y', cursor: 7 }, ['limit', 'status', 'name', 'categoryId', 'cursor']],
  ])('refuses %j in %j', (query, refused) => {
    expect(validated(ListPetsQueryDto, query).refused).toEqual(refused);
  });

  it('says a repeated cursor in words a caller can act on', () => {
    const [error] = validateSync(plainToInstance(ListPetsQueryDto, { cursor: ['a', 'b'] }));
    expect(Object.values(error.constraints ?? {})).toEqual(['cursor must be a single value taken from a Link header']);
  });
});

describe(NewPetDto.name, () => {
  it.each([
    [{ name: 'Rex', categoryId: 1 }, []],
    [{ name: 'Rex', categoryId: 1, status: 'pending' }, []],
    // An optional field left out, or sent as undefined, is not judged.
    [{ name: 'Rex', categoryId: 1, status: undefined }, []],
    [{}, ['name', 'categoryId']],
    [{ name: 'Rex', categoryId: '1' }, ['categoryId']],
    [{ name: 'Rex', categoryId: 1, status: null }, ['status']],
    [{ name: 'Rex', categoryId: 1, status: 'lost' }, ['status']],
  ])('judges %j: refused %j', (pet, refused) => {
    expect(validated(NewPetDto, pet).refused).toEqual(refused);
  });
});
