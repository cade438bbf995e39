import { configure } from '@testing-library/react';

// waitFor and findBy give up after 1 s by default: a verdict on this machine's speed. The page's own waits (a search
// runs once typing pauses for 300 ms) and a busy machine fit well within this; a page that never gets there still
// fails, only later.
configure({ asyncUtilTimeout: 30_000 });
