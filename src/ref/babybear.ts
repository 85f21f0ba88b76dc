/**
 * Moved to src/field/babybear.ts (issue 22): this re-export keeps the NTT kernels' imports
 * working until their owner switches them; delete it then.
 * @module
 */
export * from '../field/babybear.js';
