// Types of inputs.js for the TypeScript test that imports it (the repo's tsconfig has no allowJs;
// the fixtures' pages are plain JS as many apps are).
export declare const DFT_VALUES: number[];
export declare const DFT_WIDTH: number;
export declare const POSEIDON2_STATE: number[];
export declare const MSM_SCALARS: string[];
export declare const PAGE_TIMEOUT_MS: number;
export declare const MERKLE_WIDTH: number;
export declare const MERKLE_VALUES: number[];
export declare const MERKLE_INDEX: number;
export declare const FIELD_A: number[];
export declare const FIELD_B: number[];
export declare const GRIND_OBSERVED: number[];
export declare const GRIND_BITS: number;
export declare const WHIR_VARIABLES: number;
