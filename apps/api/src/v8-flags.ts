import { setFlagsFromString } from 'node:v8';

// V8 pretenures an allocation site (allocates its objects straight into the old generation) once most of them survive
// a young collection, and never takes that back. A slow moment under load can make a per-request site look long-lived,
// after which each request's promoted objects keep it alive until a full collection: many more of those, and a higher
// p99, for the rest of the process's life (docs/performance.md, "Checking a change"). Nothing request-scoped lives long
// here. V8 reads the flag at each young collection, so setting it before load is enough.
setFlagsFromString('--no-allocation-site-pretenuring');
