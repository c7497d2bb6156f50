// `node dist/server/main.js`: the server process. The young generation is held at its first size
// while the modules load and the server starts (ops/startup-heap.ts), so the rest is imported after.
import { holdYoungGeneration } from './ops/startup-heap.ts';

const started = holdYoungGeneration();
const { serve } = await import('./serve.ts');
await serve(started);
