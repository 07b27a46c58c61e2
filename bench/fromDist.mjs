/**
 * `node --import tsx --import ./bench/fromDist.mjs …`: the benchmark's imports of ../src/… load the
 * compiled ../dist/… instead (`npm run build`), so the numbers are those of the code the package ships
 * (tsc's output), not of tsx's on-the-fly transform of the sources (which wraps every function in a
 * name-keeping helper). The benchmark files themselves still run through tsx.
 */
import { register } from 'node:module';

register('./fromDistHooks.mjs', import.meta.url);
