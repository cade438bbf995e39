import { setFlagsFromString } from 'node:v8';

// V8 "pretenures" an allocation site (allocates its objects straight into the old generation) once 85% of them
// survive a young collection, and never takes that decision back. A slow moment under load (the first seconds,
// before the code is optimised) can make a per-request site look long-lived; from then on each request's old
// objects hold its request and response alive through every young collection, so those are promoted too, and the
// process runs many times the full collections, at a much higher p99, for the rest of its life (measured: see
// docs/performance.md, allocation-site pretenuring). Nothing request-scoped lives long here, so the heuristic has nothing to win. V8 reads the flag at
// each young collection, so setting it here, before the service is under load, is enough.
setFlagsFromString('--no-allocation-site-pretenuring');
