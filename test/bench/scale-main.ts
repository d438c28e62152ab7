// Entry for `npm run bench -- scale` in its own process (a larger heap, gc exposed).
import { benchScale } from './scale';

await benchScale();
process.exit(0);
