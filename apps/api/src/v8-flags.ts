import { setFlagsFromString } from 'node:v8';

// V8 "pretenures" an allocation site (allocates its objects straight into the old generation) once 85% of them
// survive a young collection, and never takes that decision back. A slow moment under load (the first seconds,
// before the code is optimised) can make a per-request site look long-lived; from then on each request's old
// objects hold its request and response alive through every young collection, so those are promoted too. About one
// process in five then ran 5 to 10 times as many full collections, with 3 to 4 times the p99 latency, for the rest
// of its life. Nothing request-scoped lives long here, so the heuristic has nothing to win. V8 reads the flag at
// each young collection, so setting it here, before the service is under load, is enough.
setFlagsFromString('--no-allocation-site-pretenuring');
