/**
 * KoalaBear, p = 2^31 - 2^24 + 1 = 127·2^24 + 1 (0x7f000001), as Plonky3 `p3-koala-bear`
 * 0.9.0-rc.2 defines it: Montgomery form with MU = 0x81000001, generator 3, two-adicity 24, the
 * degree-4 extension X^4 - 3. Everything but the shape and W is derived (src/params/monty31.ts);
 * test/unit/koalabear.test.ts checks the record against the crate's constants and vectors.
 * @module
 */
import { defineMonty31 } from './monty31.js';

export const KOALA_BEAR = defineMonty31('koalabear', { label: 'KoalaBear', shiftHi: 31, shiftLo: 24, ext4W: 3 });
