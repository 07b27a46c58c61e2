/**
 * The entry of bench/floorWorker.ts's thread: Node 20 starts a worker on a JavaScript file, so this
 * one loads the TypeScript worker through tsx's own API. Its imports of ../src/... take the same
 * module hooks as the thread that started it (bench/fromDist.mjs: dist/ when that is what is measured).
 */
import { tsImport } from 'tsx/esm/api';

await tsImport('./floorWorker.ts', import.meta.url);
