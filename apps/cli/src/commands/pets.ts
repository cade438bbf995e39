import type { NewPet, Pet } from '@petstore/client';
import { CURSOR_RULE, IDEMPOTENCY_KEY_RULE, LIST_LIMIT, LIST_LIMIT_RULE, PET_FIELDS, SAFE_ID_RULE } from '@petstore/contract';
import { type Command, Option } from 'commander';
import type { CliIo, CommandContext } from '../context';
import { checked, wholeNumber } from '../parsers';
import { formatTable } from '../table';
import { fieldOptionsOf } from './pet-field-options';
import { addFilterOptions, filtersFrom } from './pet-filter-options';

// Options arrive as the text typed and are checked by the contract's rules in each action, before anything is sent.

interface ListOptions {
  /** One per listPets filter (pet-filter-options.ts). */
  [filter: string]: string | boolean | undefined;
  limit?: string;
  cursor?: string;
  all?: boolean;
  json?: boolean;
}

const PET_OPTIONS = fieldOptionsOf(PET_FIELDS);

interface AddOptions {
  idempotencyKey?: string;
  json?: boolean;
  /** One per field of a new pet (PET_OPTIONS). */
  [field: string]: string | boolean | undefined;
}

/** `petstore pets list | add | get`, one subcommand per operation of the service. */
export function registerPetsCommands(program: Command, { io, connect }: CommandContext): void {
  const pets = program.command('pets').description('list, add and get the pets of the store');

  const list = pets.command('list').description('list pets ordered by id: one page, or every page with --all');
  addFilterOptions(list)
    .option('--limit <n>', `pets per page, ${LIST_LIMIT.min} to ${LIST_LIMIT.max} (the service defaults to ${LIST_LIMIT.default})`)
    .addOption(new Option('--cursor <cursor>', 'the next page: the cursor the page before named on stderr').conflicts('all'))
    .option('--all', 'follow every page to the end')
    .option('--json', 'print a JSON array instead of a table')
    .addHelpText(
      'after',
      '\nWhen more pets follow a page, stderr names the cursor of the next one: repeat the command\n' +
        'with --cursor <cursor> (and the same filters), or use --all. With --json too, whose stdout\n' +
        'stays a JSON array.',
    )
    .action(async (options: ListOptions, command: Command) => {
      const filters = filtersFrom(command, options);
      const limit = checked<number>(command, '--limit', options.limit, LIST_LIMIT_RULE, wholeNumber);
      const cursor = checked<string>(command, '--cursor', options.cursor, CURSOR_RULE);
      const client = connect(command, 'listPets');
      if (options.all) {
        const all: Pet[] = [];
        for await (const pet of client.iteratePets({ ...filters, pageSize: limit })) all.push(pet);
        printPets(io, all, options.json);
        return;
      }
      const page = await client.listPets({ ...filters, limit, cursor });
      printPets(io, page.pets, options.json);
      // On stderr, so that a table or JSON piped on holds only pets; but also with --json, so that a person piping
      // it to another program learns that the array is one page of several.
      if (page.nextCursor !== null) {
        io.stderr(`more pets: repeat this command with --cursor ${page.nextCursor} for the next page, or with --all for every page\n`);
      }
    });

  PET_OPTIONS.addOptions(pets.command('add').description('add a pet and print it with the id the service gave it'))
    .option(
      '--idempotency-key <key>',
      'repeat this command with the same key and it adds the pet once (kept 24 hours): 1 to 255 visible ASCII characters, no spaces',
    )
    .option('--json', 'print the pet as JSON instead of a table')
    .action(async (options: AddOptions, command: Command) => {
      const newPet = PET_OPTIONS.recordFrom(command, options) as NewPet;
      const idempotencyKey = checked<string>(command, '--idempotency-key', options.idempotencyKey, IDEMPOTENCY_KEY_RULE);
      const pet = await connect(command, 'createPet').createPet(newPet, { idempotencyKey });
      printPets(io, pet, options.json);
    });

  pets
    .command('get')
    .description('get one pet by id (deprecated by the service: prefer "pets list --status")')
    .argument('<id>', 'the id of the pet, a whole number from 1')
    .option('--json', 'print the pet as JSON instead of a table')
    .action(async (text: string, options: { json?: boolean }, command: Command) => {
      const id = checked<number>(command, 'id', text, SAFE_ID_RULE, wholeNumber);
      // Deprecated, but still served and still the only lookup by id; the client's one-time warning, which goes to
      // stderr through the logger, is this command's deprecation notice.
      const pet = await connect(command, 'getPet').getPet(id);
      printPets(io, pet, options.json);
    });
}

/** A list prints as a JSON array, one pet as the object itself; either as a table for people. */
function printPets(io: CliIo, pets: Pet | Pet[], json = false): void {
  if (json) {
    io.stdout(`${JSON.stringify(pets, null, 2)}\n`);
    return;
  }
  io.stdout(formatTable(PET_OPTIONS.header, (Array.isArray(pets) ? pets : [pets]).map(PET_OPTIONS.row)));
}
