import { spanName } from './request-spans';

describe(spanName.name, () => {
  it('names a request of one of the contract\'s operations after the operation', () => {
    expect(spanName('GET', '/v1/pets/{petId}', 'getPet')).toBe('getPet');
  });

  it('names any other request by its method and route, as the semantic conventions do', () => {
    expect(spanName('GET', '/health/ready')).toBe('GET /health/ready');
  });
});
