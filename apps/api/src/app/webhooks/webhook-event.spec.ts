import { PetStatus } from '@petstore/contract';
import { eventBody, eventList, messageId, newMessageTag, parseEventTypes } from './webhook-event';

describe('webhook events', () => {
  const pet = { id: 7, name: 'Rex', categoryId: 1, status: PetStatus.Available };

  it('makes the body of pet.created: type, RFC 3339 timestamp, the pet with its fields in order', () => {
    expect(eventBody('pet.created', Date.UTC(2026, 10, 26, 18, 0, 0, 123), pet)).toBe(
      '{"type":"pet.created","timestamp":"2026-11-26T18:00:00.123Z","data":{"id":7,"name":"Rex","categoryId":1,"status":"available"}}',
    );
  });

  it('names a message msg_<endpoint tag>_<id>, with 64 random bits in each tag', () => {
    expect(messageId('4f1c2a9e8b7d6035', 42)).toBe('msg_4f1c2a9e8b7d6035_42');
    const tags = Array.from({ length: 1_000 }, newMessageTag);
    expect(tags.every((tag) => /^[0-9a-f]{16}$/.test(tag))).toBe(true);
    expect(new Set(tags).size).toBe(tags.length);
  });

  it.each([
    ['pet.deleted', 'unknown event type "pet.deleted"; the event types are pet.created.'],
    ['', 'an empty event type in ""; name one or more of pet.created.'],
    ['pet.created,', 'an empty event type in "pet.created,"; name one or more of pet.created.'],
    ['pet.created,pet.created', 'event type "pet.created" is named twice.'],
  ])('refuses --events %j, naming why', (text, message) => {
    expect(() => parseEventTypes(text)).toThrow(new Error(message));
  });

  it('reads a list of event types, and stores them space-separated, ignoring unknown ones when read back', () => {
    expect(parseEventTypes(' pet.created ')).toEqual(['pet.created']);
    expect(eventList.to(['pet.created'])).toBe('pet.created');
    // Written for any number of types, though one exists so far.
    expect(eventList.to(['pet.created', 'pet.created'])).toBe('pet.created pet.created');
    expect(eventList.from('pet.created pet.renamed')).toEqual(['pet.created']);
  });
});
