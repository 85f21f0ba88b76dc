/**
 * Where the WHIR prover's large-table work runs: the sumcheck's two tables (the polynomial's
 * evaluations and the batched constraint weights, 2^m entries each), their round messages, binds,
 * constraint updates and evaluations. `CpuSumcheckEngine` runs it in TypeScript; a GPU engine
 * keeps the tables in GPU buffers. The protocol (prover.ts) sees only this interface, so the two
 * are interchangeable and checked against each other.
 * @module
 */
import { EF_ZERO, efAdd, efMul, type EfVec, type Ext4 } from './ext.js';
import { addEqWeights, addSelectWeights, evalBase, evalExt } from './multilinear.js';
import { SumcheckState, type RoundMessage } from './sumcheck.js';

/** weights += coeff·eq(point, ·) and sum += coeff·value. */
export interface EqClaim {
  point: Ext4[];
  coeff: Ext4;
  value: Ext4;
}
/** weights[b] += coeff·x^b and sum += coeff·value. */
export interface SelectClaim {
  x: number;
  coeff: Ext4;
  value: Ext4;
}

export interface SumcheckEngine {
  /** Variables not yet bound. */
  readonly numVariables: number;
  /** The claimed Σ evals·weights. */
  readonly sum: Ext4;
  /** The current polynomial at `point` (MSB-first), without touching the weights. */
  evaluate(point: Ext4[]): Promise<Ext4>;
  /** Fold constraints into the weights and the sum (the first call sets up the weights). */
  addClaims(eq: EqClaim[], select: SelectClaim[]): Promise<void>;
  /** [h(0), h(∞)] of the next round. */
  roundMessage(): Promise<RoundMessage>;
  /** Bind the last variable to r and move the sum to h(r) (`message` is the round's own). */
  bind(message: RoundMessage, r: Ext4): Promise<void>;
  /** The current evaluations (2^numVariables extension elements), read back for commits and the final polynomial. */
  evals(): Promise<EfVec>;
  dispose(): void;
}

/**
 * A base-field table already in a GPU buffer (2^n canonical values): the one the commit uploaded,
 * kept by the commitment so the sumcheck engine does not upload it again. Engines only read it.
 */
export interface GpuTable {
  readonly buffer: GPUBuffer;
  readonly length: number;
  /** The device's context the buffer belongs to (a recovered device has a new one). */
  readonly owner: object;
  /** The values, read back (for an engine on the CPU). */
  read(): Promise<Uint32Array>;
}

/** The table an engine starts from: base-field evaluations on the host, or on the GPU. */
export type EngineTable = Uint32Array | GpuTable;

/** Makes the engine for a base-field table of 2^n evaluations. */
export type SumcheckEngineFactory = (table: EngineTable) => Promise<SumcheckEngine>;

/** The table's values on the host (read back when it is on the GPU). */
export async function hostValues(table: EngineTable): Promise<Uint32Array> {
  return table instanceof Uint32Array ? table : table.read();
}

/** The TypeScript engine (SumcheckState), the reference the GPU engine is checked against. */
export class CpuSumcheckEngine implements SumcheckEngine {
  private readonly state: SumcheckState;

  /** A fresh engine on base-field evaluations, or one that continues from `state` (a GPU engine handing small tables over). */
  constructor(evals: Uint32Array | SumcheckState) {
    this.state = evals instanceof SumcheckState ? evals : new SumcheckState({ base: evals }, new Uint32Array(4 * evals.length), EF_ZERO);
  }

  get numVariables(): number {
    return this.state.numVariables;
  }

  get sum(): Ext4 {
    return this.state.sum;
  }

  async evaluate(point: Ext4[]): Promise<Ext4> {
    const base = this.state.baseEvals();
    return base ? evalBase(base, point) : evalExt(this.state.evals(), point);
  }

  async addClaims(eq: EqClaim[], select: SelectClaim[]): Promise<void> {
    for (const c of eq) {
      addEqWeights(this.state.weights, c.point, c.coeff);
      this.state.sum = efAdd(this.state.sum, efMul(c.coeff, c.value));
    }
    for (const c of select) {
      addSelectWeights(this.state.weights, c.x, c.coeff);
      this.state.sum = efAdd(this.state.sum, efMul(c.coeff, c.value));
    }
  }

  async roundMessage(): Promise<RoundMessage> {
    return this.state.roundMessage();
  }

  async bind(message: RoundMessage, r: Ext4): Promise<void> {
    this.state.advance(message, r);
  }

  async evals(): Promise<EfVec> {
    return this.state.evals();
  }

  dispose(): void {}
}

export const cpuSumcheckEngine: SumcheckEngineFactory = async (table) => new CpuSumcheckEngine(await hostValues(table));
