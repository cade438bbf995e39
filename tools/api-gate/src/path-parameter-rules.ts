import { type Finding, operationLabel } from './finding';
import { isObject, type JsonObject, objectAt, operationsOf } from './json';

const TEMPLATE = /\{([^}]+)\}/g;
/** `/pets/{petId}` as `/pets/{}`: the path a request takes, whatever its parameters are called. */
const shapeOf = (path: string) => path.replace(TEMPLATE, '{}');
const namesIn = (path: string) => [...path.matchAll(TEMPLATE)].map(([, name]) => name);

/** The current path a released one is served at: itself, else the one of the same shape (its parameters renamed). */
export const matchingPath = (path: string, current: string[]): string | undefined =>
  current.includes(path) ? path : current.find((candidate) => shapeOf(candidate) === shapeOf(path));

/**
 * Path parameters by name, where openapi-diff matches paths by position: generated clients in languages with named
 * arguments (openapi-generator's Python and Kotlin, for example) take them by name, so `get_pet(pet_id=…)` stops
 * compiling or running when `petId` becomes `id`, though every URL stays the same (docs/releasing.md).
 */
export function pathParameterFindings(released: JsonObject, current: JsonObject): Finding[] {
  const currentPaths = objectAt(current, 'paths');
  return Object.entries(objectAt(released, 'paths')).flatMap(([path, item]) => {
    const renamedTo = matchingPath(path, Object.keys(currentPaths));
    if (!isObject(item) || renamedTo === undefined || renamedTo === path) return [];
    const [old, now] = [namesIn(path), namesIn(renamedTo)];
    const renames = old.flatMap((name, index) => (name === now[index] ? [] : [`${name} → ${now[index]}`])).join(', ');
    return operationsOf(item)
      .filter(([method]) => isObject(objectAt(currentPaths, renamedTo)[method]))
      .map(([method]): Finding => ({ severity: 'breaking', where: operationLabel(path, method), what: `path parameter renamed: ${renames}`, by: 'rule:path-parameter' }));
  });
}
