// Entry for `npm run bench -- verdicts` in its own process (a larger heap for the index of a million locks).
import { benchVerdicts } from './verdicts';

await benchVerdicts();
process.exit(0);
