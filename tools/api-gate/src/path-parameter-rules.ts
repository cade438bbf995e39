import { type Finding, operationLabel } from './finding';
import { isObject, type JsonObject, objectAt, operationsOf } from './json';

const TEMPLATE = /\{([^}]+)\}/g;
/** `/pets/{petId}` as `/pets/{}`: the path a request takes, whatever its parameters are called. */
const shapeOf = (path: string) => path.replace(TEMPLATE, '{}');
const namesIn = (path: string) => [...path.matchAll(TEMPLATE)].map(([, name]) => name);

/** The current path a released one is served at: itself, else the one of the same shape (its parameters renamed). */
const matchingPath = (path: string, current: string[]): string | undefined =>
  current.includes(path) ? path : current.find((candidate) => shapeOf(candidate) === shapeOf(path));

/** Each released operation the current document still serves, at its path there (renamed parameters or not). */
export function servedOperations(released: JsonObject, current: JsonObject): Array<{ path: string; servedAt: string; method: string; before: JsonObject; after: JsonObject }> {
  const currentPaths = objectAt(current, 'paths');
  return Object.entries(objectAt(released, 'paths')).flatMap(([path, item]) => {
    const servedAt = matchingPath(path, Object.keys(currentPaths));
    if (!isObject(item) || servedAt === undefined) return [];
    return operationsOf(item).flatMap(([method, before]) => {
      const after = objectAt(currentPaths, servedAt)[method];
      return isObject(after) ? [{ path, servedAt, method, before, after }] : [];
    });
  });
}

/**
 * Path parameters by name, where openapi-diff matches paths by position: generated clients in languages with named
 * arguments (openapi-generator's Python and Kotlin, for example) take them by name, so `get_pet(pet_id=…)` stops
 * compiling or running when `petId` becomes `id`, though every URL stays the same (docs/releasing.md).
 */
export function pathParameterFindings(released: JsonObject, current: JsonObject): Finding[] {
  return servedOperations(released, current)
    .filter(({ path, servedAt }) => servedAt !== path)
    .map(({ path, servedAt, method }): Finding => {
      const now = namesIn(servedAt);
      const renames = namesIn(path).flatMap((name, index) => (name === now[index] ? [] : [`${name} → ${now[index]}`])).join(', ');
      return { severity: 'breaking', where: operationLabel(path, method), what: `path parameter renamed: ${renames}`, by: 'rule:path-parameter' };
    });
}
