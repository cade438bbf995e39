import { type Pet, PetStatus } from '@petstore/client';
import { type Command, Option } from 'commander';
import type { CliIo, CommandContext } from '../context';
import { parsePositiveInteger } from '../parsers';
import { formatTable } from '../table';

interface ListOptions {
  status?: PetStatus;
  limit?: number;
  all?: boolean;
  json?: boolean;
}

interface AddOptions {
  name: string;
  category: number;
  status?: PetStatus;
  idempotencyKey?: string;
  json?: boolean;
}

/** `petstore pets list | add | get`, one subcommand per operation of the service. */
export function registerPetsCommands(program: Command, { io, connect }: CommandContext): void {
  const pets = program.command('pets').description('list, add and get the pets of the store');

  pets
    .command('list')
    .description('list pets ordered by id: one page, or every page with --all')
    .addOption(statusOption('only pets with this status'))
    .option('--limit <n>', 'pets per page (the service accepts 1 to 100 and defaults to 20)', parsePositiveInteger)
    .option('--all', 'follow every page to the end')
    .option('--json', 'print a JSON array instead of a table')
    .action(async (options: ListOptions, command: Command) => {
      const client = connect(command);
      if (options.all) {
        const all: Pet[] = [];
        for await (const pet of client.iteratePets({ status: options.status, pageSize: options.limit })) all.push(pet);
        printPets(io, all, options.json);
        return;
      }
      const page = await client.listPets({ status: options.status, limit: options.limit });
      printPets(io, page.pets, options.json);
      // On stderr, so that piping the table still gets only pets; JSON callers follow pages with --all.
      if (page.nextCursor !== null && !options.json) io.stderr('more pets: use --all\n');
    });

  pets
    .command('add')
    .description('add a pet and print it with the id the service gave it')
    .requiredOption('--name <name>', "the pet's name")
    .requiredOption('--category <id>', 'id of its category', parsePositiveInteger)
    .addOption(statusOption('its status (the service defaults to available)'))
    .option('--idempotency-key <key>', 'repeat this command with the same key and it adds the pet once (kept 24 hours)')
    .option('--json', 'print the pet as JSON instead of a table')
    .action(async (options: AddOptions, command: Command) => {
      const newPet = { name: options.name, categoryId: options.category, status: options.status };
      const pet = await connect(command).createPet(newPet, { idempotencyKey: options.idempotencyKey });
      printPets(io, pet, options.json);
    });

  pets
    .command('get')
    .description('get one pet by id (deprecated by the service: prefer "pets list --status")')
    .argument('<id>', 'the id of the pet', parsePositiveInteger)
    .option('--json', 'print the pet as JSON instead of a table')
    .action(async (id: number, options: { json?: boolean }, command: Command) => {
      // Deprecated, but still served and still the only lookup by id; the client's one-time warning, which goes to
      // stderr through the logger, is this command's deprecation notice.
      const pet = await connect(command).getPet(id);
      printPets(io, pet, options.json);
    });
}

function statusOption(description: string): Option {
  return new Option('--status <status>', description).choices(Object.values(PetStatus));
}

/** A list prints as a JSON array, one pet as the object itself; either as a table for people. */
function printPets(io: CliIo, pets: Pet | Pet[], json = false): void {
  if (json) {
    io.stdout(`${JSON.stringify(pets, null, 2)}\n`);
    return;
  }
  const rows = (Array.isArray(pets) ? pets : [pets]).map((pet) => [String(pet.id), pet.name, String(pet.categoryId), pet.status ?? '']);
  io.stdout(formatTable(['ID', 'NAME', 'CATEGORY', 'STATUS'], rows));
}
