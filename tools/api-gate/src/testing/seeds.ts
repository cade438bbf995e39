import { compareContracts, type GateReport } from '../api-gate';
import { CURRENT_DOCUMENT, readDocument } from '../documents';
import type { JsonObject } from '../json';

// Seeds edit a copy of the committed document the way a change to the sources would; the shapes they reach into are
// the committed document's own (a seed that no longer finds its place fails loudly, with a TypeError).
/* eslint-disable @typescript-eslint/no-explicit-any */
export type Seed = (document: any) => void;

export const committed = readDocument(CURRENT_DOCUMENT);
export const schemas = (document: any) => document.components.schemas;
export const listPets = (document: any) => document.paths['/pets'].get;
export const createPet = (document: any) => document.paths['/pets'].post;
export const getPet = (document: any) => document.paths['/pets/{petId}'].get;
export const petCreated = (document: any) => document.webhooks['pet.created'].post;
export const renameKey = (object: any, from: string, to: string) => {
  object[to] = object[from];
  delete object[from];
};

/** The committed document compared with a copy changed by `seed` (and given `version`, if any). */
export const gate = (seed: Seed, version?: string): Promise<GateReport> => gateBetween(() => undefined, seed, version);

/** A release made by `base` from the committed document, compared with the same release changed by `change`. */
export async function gateBetween(base: Seed, change: Seed, version?: string): Promise<GateReport> {
  const released = structuredClone(committed) as any;
  base(released);
  const current = structuredClone(released);
  change(current);
  if (version) current.info.version = version;
  return compareContracts(released as JsonObject, current as JsonObject);
}
