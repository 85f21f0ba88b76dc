//! Throwaway oracle for the TS Fiat-Shamir layer: prints p3-whir / p3-sumcheck domain
//! separators (render, label, seed) and a logged real commit+open (challenger events and
//! Poseidon2 permutation trace), with Plonky3's default Poseidon2 constants.
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use p3_baby_bear::{BabyBear, Poseidon2BabyBear, default_babybear_poseidon2_16};
use p3_challenger::fs::{
    DomainSeparator, FieldToFieldCodec, FieldUnit, Hierarchy, Interaction, InteractionPattern,
    Kind, Length, ProverState,
};
use p3_challenger::{
    CanObserve, CanSample, CanSampleBits, CanSampleUniformBits, DuplexChallenger,
    FieldChallenger, GrindingChallenger, ResamplingError,
};
use p3_commit::MultilinearPcs;
use p3_dft::Radix2DFTSmallBatch;
use p3_field::extension::BinomialExtensionField;
use p3_field::{BasedVectorSpace, Field, PrimeCharacteristicRing, PrimeField32};
use p3_merkle_tree::{MerkleCap, MerkleTreeMmcs};
use p3_sumcheck::layout::{Layout as _, SuffixProver, Table, commitment_domain_separator};
use p3_sumcheck::strategy::Basis;
use p3_sumcheck::transcript::SumcheckShape;
use p3_sumcheck::{OpeningBatch, OpeningProtocol, TableShape, TableSpec};
use p3_symmetric::{CryptographicPermutation, PaddingFreeSponge, Permutation, TruncatedPermutation};
use p3_whir::WhirShape;
use p3_whir::parameters::{FoldingFactor, ProtocolParameters, SecurityAssumption, WhirConfig};
use p3_whir::pcs::prover::WhirProver;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use serde_json::{Value, json};

type F = BabyBear;
type EF = BinomialExtensionField<F, 4>;
type Perm = Poseidon2BabyBear<16>;
type PackedF = <F as Field>::Packing;

static TRACE_ON: AtomicBool = AtomicBool::new(false);
static TRACE: Mutex<Vec<([u32; 16], [u32; 16])>> = Mutex::new(Vec::new());
static EVENTS: Mutex<Vec<Value>> = Mutex::new(Vec::new());

/// Poseidon2 (default constants) that records every scalar permutation while TRACE_ON.
#[derive(Clone)]
struct TracedPerm(Perm);

impl Permutation<[F; 16]> for TracedPerm {
    fn permute_mut(&self, state: &mut [F; 16]) {
        let before = state.map(|x| x.as_canonical_u32());
        self.0.permute_mut(state);
        if TRACE_ON.load(Ordering::SeqCst) {
            TRACE.lock().unwrap().push((before, state.map(|x| x.as_canonical_u32())));
        }
    }
}
impl CryptographicPermutation<[F; 16]> for TracedPerm {}

type Inner = DuplexChallenger<F, TracedPerm, 16, 8>;

fn ev(v: Value) {
    if TRACE_ON.load(Ordering::SeqCst) {
        EVENTS.lock().unwrap().push(v);
    }
}

/// A DuplexChallenger that logs every call the transcript layer makes on it.
#[derive(Clone)]
struct LogCh(Inner);

impl CanObserve<F> for LogCh {
    fn observe(&mut self, v: F) {
        ev(json!(["o", v.as_canonical_u32()]));
        self.0.observe(v);
    }
}
impl CanObserve<MerkleCap<F, [F; 8]>> for LogCh {
    fn observe(&mut self, cap: MerkleCap<F, [F; 8]>) {
        for d in cap.roots() {
            for v in d {
                CanObserve::<F>::observe(self, *v);
            }
        }
    }
}
impl CanSample<F> for LogCh {
    fn sample(&mut self) -> F {
        let v: F = self.0.sample();
        ev(json!(["s", v.as_canonical_u32()]));
        v
    }
}
impl CanSampleBits<usize> for LogCh {
    fn sample_bits(&mut self, bits: usize) -> usize {
        let v = self.0.sample_bits(bits);
        ev(json!(["b", bits, v]));
        v
    }
}
impl CanSampleUniformBits<F> for LogCh {
    fn sample_uniform_bits<const R: bool>(&mut self, bits: usize) -> Result<usize, ResamplingError> {
        let v = self.0.sample_uniform_bits::<R>(bits)?;
        ev(json!(["u", bits, v]));
        Ok(v)
    }
}
impl FieldChallenger<F> for LogCh {}
impl GrindingChallenger for LogCh {
    type Witness = F;
    fn grind(&mut self, bits: usize) -> F {
        // Search on a copy with tracing off; then replay check_witness (observe + sample_bits)
        // on the real sponge, traced: the same effect as the crate's grind.
        let was = TRACE_ON.swap(false, Ordering::SeqCst);
        let w = self.0.clone().grind(bits);
        TRACE_ON.store(was, Ordering::SeqCst);
        assert!(self.0.check_witness(bits, w));
        ev(json!(["g", bits, w.as_canonical_u32()]));
        w
    }
}

/// Records what a seed absorbs.
#[derive(Default)]
struct Rec(Vec<F>);
impl CanObserve<F> for Rec {
    fn observe(&mut self, v: F) {
        self.0.push(v);
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The seed bytes, recovered from what the crate's own `seed` absorbs ([len, 3-byte LE chunks]).
fn seed_of(ds: &DomainSeparator<FieldUnit<F>>) -> (Vec<u8>, Vec<u32>) {
    let mut rec = Rec::default();
    ds.seed(&mut rec);
    let els: Vec<u32> = rec.0.iter().map(|x| x.as_canonical_u32()).collect();
    let len = els[0] as usize;
    let mut bytes = Vec::new();
    for &e in &els[1..] {
        for i in 0..3 {
            if bytes.len() < len {
                bytes.push(((e >> (8 * i)) & 0xff) as u8);
            }
        }
    }
    (bytes, els)
}

fn ds_json(ds: &DomainSeparator<FieldUnit<F>>) -> Value {
    let id = ds.protocol_id();
    let name_len = id[63] as usize;
    let (seed, els) = seed_of(ds);
    json!({
        "name": String::from_utf8(id[1..1 + name_len].to_vec()).unwrap(),
        "version": id[0],
        "label": hex(ds.instance_label()),
        "pattern": format!("{:#}", ds.pattern()),
        "seed": hex(&seed),
        "seedElements": els,
    })
}

fn params(fold: usize, rate: usize) -> ProtocolParameters {
    ProtocolParameters {
        security_level: 90,
        pow_bits: 16,
        round_log_inv_rates: vec![],
        folding_factor: FoldingFactor::Constant(fold),
        soundness_type: SecurityAssumption::CapacityBound,
        starting_log_inv_rate: rate,
    }
}

type MyHash = PaddingFreeSponge<Perm, 16, 8, 8>;
type MyCompress = TruncatedPermutation<Perm, 2, 8, 16>;
type MyMmcs = MerkleTreeMmcs<PackedF, PackedF, MyHash, MyCompress, 2, 8>;
type Pcs = WhirProver<EF, F, Radix2DFTSmallBatch<F>, MyMmcs, LogCh, SuffixProver<F, EF>>;

fn config_json(n: usize, fold: usize, rate: usize) -> Value {
    let config = WhirConfig::<EF, F, LogCh>::new(n, params(fold, rate)).unwrap();
    let shape = WhirShape::new(&config, 1);
    let whir = ds_json(&shape.domain_separator::<F, EF>());
    let mut phases = vec![shape.initial_sumcheck];
    for r in &shape.rounds {
        phases.push(r.sumcheck);
    }
    phases.push(shape.final_sumcheck);
    let quads: Vec<Value> = phases
        .iter()
        .map(|p| {
            let mut q = ds_json(&SumcheckShape::new(p.rounds, p.pow_bits, Basis::Evaluation).domain_separator::<F, EF>());
            q["rounds"] = json!(p.rounds);
            q["powBits"] = json!(p.pow_bits);
            q
        })
        .collect();
    let rounds: Vec<Value> = shape
        .rounds
        .iter()
        .map(|r| {
            json!({"oodSamples": r.ood_samples, "queryPowBits": r.query_pow_bits, "queryDraws": r.query_draws,
                "indexBits": r.index_bits, "sumcheckRounds": r.sumcheck.rounds, "sumcheckPowBits": r.sumcheck.pow_bits,
                "logInvRate": r.log_inv_rate})
        })
        .collect();
    let rp: Vec<Value> = config
        .round_parameters()
        .iter()
        .map(|r| {
            json!({"powBits": r.pow_bits, "foldingPowBits": r.folding_pow_bits, "numQueries": r.num_queries,
                "oodSamples": r.ood_samples, "numVariables": r.num_variables, "foldingFactor": r.folding_factor,
                "logInvRate": r.log_inv_rate, "domainSize": r.domain_size, "logFoldedDomainSize": r.log_folded_domain_size})
        })
        .collect();
    let p = config.params();
    let schedule = json!({
        "numVariables": config.num_variables(),
        "maxLogDomainSize": 27,
        "domainId": [],
        "stratifiedQueries": false,
        "params": {
            "securityLevel": p.security_level, "powBits": p.pow_bits,
            "foldingFactor": {"kind": "Constant", "factor": fold},
            "soundness": "CapacityBound", "startingLogInvRate": p.starting_log_inv_rate,
            "roundLogInvRates": p.round_log_inv_rates,
        },
        "rounds": rp,
        "foldingSchedule": config.folding_schedule(),
        "commitmentOodSamples": config.commitment_ood_samples(),
        "startingFoldingPowBits": config.starting_folding_pow_bits(),
        "terminal": {"numQueries": config.terminal().num_queries, "powBits": config.terminal().pow_bits},
        "finalSumcheckRounds": config.final_sumcheck_rounds(),
        "finalFoldingPowBits": config.final_folding_pow_bits(),
    });
    json!({
        "n": n, "fold": fold, "rate": rate,
        "schedule": schedule,
        "shape": {
            "commitmentOodSamples": shape.commitment_ood_samples,
            "commitmentRowWidth": shape.commitment_row_width,
            "initialSumcheck": [shape.initial_sumcheck.rounds, shape.initial_sumcheck.pow_bits],
            "rounds": rounds,
            "finalPolyLen": shape.final_poly_len,
            "finalPowBits": shape.final_pow_bits,
            "finalQueryDraws": shape.final_query_draws,
            "finalIndexBits": shape.final_index_bits,
            "finalSumcheck": [shape.final_sumcheck.rounds, shape.final_sumcheck.pow_bits],
        },
        "whir": whir,
        "quadratic": quads,
        "commitment": ds_json(&commitment_domain_separator::<F>()),
    })
}

/// One real commit + open (one table, one column, one verifier-drawn opening), logged.
fn prove(n: usize, fold: usize, rate: usize) -> (Vec<Value>, Vec<([u32; 16], [u32; 16])>) {
    let perm = default_babybear_poseidon2_16();
    let mmcs = MyMmcs::new(MyHash::new(perm.clone()), MyCompress::new(perm.clone()), 0);
    let config = WhirConfig::<EF, F, LogCh>::new(n, params(fold, rate)).unwrap();
    let dft = Radix2DFTSmallBatch::<F>::new(1 << config.max_fft_size());
    let pcs = Pcs::new(config, dft, mmcs);
    let mut rng = SmallRng::seed_from_u64(0);
    let table = Table::rand(&mut rng, 1, n);
    let witness = SuffixProver::<F, EF>::new_witness(vec![table], fold);
    let protocol = OpeningProtocol::new(vec![TableSpec::new(
        TableShape::new(n, 1),
        vec![OpeningBatch::new(vec![0], vec![])],
    )])
    .pad_to_min_num_variables(fold);
    let mut ch = LogCh(Inner::new(TracedPerm(perm)));
    TRACE.lock().unwrap().clear();
    EVENTS.lock().unwrap().clear();
    TRACE_ON.store(true, Ordering::SeqCst);
    let (_c, data) = <Pcs as MultilinearPcs<EF, LogCh>>::commit(&pcs, witness, &mut ch).unwrap();
    let _proof = <Pcs as MultilinearPcs<EF, LogCh>>::open(&pcs, data, protocol, &mut ch).unwrap();
    TRACE_ON.store(false, Ordering::SeqCst);
    (EVENTS.lock().unwrap().clone(), TRACE.lock().unwrap().clone())
}

/// Unit vectors for each prover op, through ProverState over a custom pattern.
fn ops() -> Value {
    let e = |c: [u32; 4]| EF::from_basis_coefficients_fn(|i| F::from_u32(c[i]));
    let ec = |x: EF| -> Vec<u32> { BasedVectorSpace::<F>::as_basis_coefficients_slice(&x).iter().map(|c: &F| c.as_canonical_u32()).collect() };
    let steps = vec![
        Interaction::algebra::<F, EF>(Hierarchy::Atomic, Kind::Message, "x", Length::Scalar),
        Interaction::algebra::<F, EF>(Hierarchy::Atomic, Kind::Challenge, "y", Length::Scalar),
        Interaction::marker::<()>(Hierarchy::Begin, Kind::Protocol, "sub"),
        Interaction::algebra::<F, EF>(Hierarchy::Atomic, Kind::Message, "xs", Length::Fixed(3)),
        Interaction::marker::<()>(Hierarchy::End, Kind::Protocol, "sub"),
        Interaction::uniform_bits(Hierarchy::Atomic, Kind::Challenge, "q", 20, Length::Fixed(5)),
        Interaction::uniform_bits(Hierarchy::Atomic, Kind::Challenge, "q2", 29, Length::Fixed(2)),
        Interaction::bits(Hierarchy::Atomic, Kind::Challenge, "b", 10, Length::Fixed(3)),
        Interaction::algebra::<F, F>(Hierarchy::Atomic, Kind::Pow, "w", Length::Fixed(8)),
        Interaction::algebra::<F, F>(Hierarchy::Atomic, Kind::Message, "s", Length::Fixed(3)),
        Interaction::opaque(Hierarchy::Atomic, Kind::Message, "c", Length::Scalar),
        Interaction::algebra::<F, EF>(Hierarchy::Atomic, Kind::Challenge, "ys", Length::Fixed(2)),
        Interaction::algebra::<F, F>(Hierarchy::Atomic, Kind::Challenge, "z", Length::Scalar),
    ];
    let pattern = InteractionPattern::new(steps).unwrap();
    let mut ds = DomainSeparator::<FieldUnit<F>>::new(7, b"fs-ops-test", pattern);
    ds.instance(b"hello").instance(&42u64.to_be_bytes());
    let mut ch = Inner::new(TracedPerm(default_babybear_poseidon2_16()));
    let mut st = ProverState::new(&mut ch, &ds);
    let x = e([1, 2, 3, 2013265920]);
    st.observe_extension::<F, EF, FieldToFieldCodec<F>>("x", &x);
    let y = st.challenge_extension::<F, EF, FieldToFieldCodec<F>>("y").into_inner();
    st.begin_protocol::<()>("sub");
    let xs = [e([5, 6, 7, 8]), e([9, 10, 11, 12]), e([13, 14, 15, 16])];
    st.observe_extensions::<F, EF, FieldToFieldCodec<F>>("xs", &xs);
    st.end_protocol::<()>("sub");
    let q: Vec<usize> = st.challenge_uniform_bits::<F>("q", 20, 5).into_iter().map(|b| b.into_inner()).collect();
    let q2: Vec<usize> = st.challenge_uniform_bits::<F>("q2", 29, 2).into_iter().map(|b| b.into_inner()).collect();
    let b: Vec<usize> = st.challenge_bits("b", 10, 3).into_iter().map(|b| b.into_inner()).collect();
    let w = st.observe_pow("w", 8);
    let s = [F::from_u32(100), F::from_u32(200), F::from_u32(300)];
    st.add_scalars::<F, FieldToFieldCodec<F>>("s", &s);
    let cap: [F; 8] = core::array::from_fn(|i| F::from_u32(1000 + i as u32));
    st.observe_opaque("c", cap);
    let ys: Vec<Vec<u32>> = st
        .challenge_extensions::<F, EF, FieldToFieldCodec<F>>("ys", 2)
        .into_iter()
        .map(|v| ec(v.into_inner()))
        .collect();
    let z = st.challenge_scalar::<F, FieldToFieldCodec<F>>("z").into_inner();
    let narg = st.finalize();
    let after: F = ch.sample();
    json!({
        "ds": ds_json(&ds),
        "y": ec(y), "q": q, "q2": q2, "b": b, "w": w.as_canonical_u32(), "ys": ys,
        "z": z.as_canonical_u32(), "narg": hex(&narg), "nextSample": after.as_canonical_u32(),
    })
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let nums = |i: usize| -> usize { args[i].parse().unwrap() };
    match args[1].as_str() {
        "seeds" => println!("{}", config_json(nums(2), nums(3), nums(4))),
        "prove" => {
            let (events, trace) = prove(nums(2), nums(3), nums(4));
            if args.get(5).map(String::as_str) == Some("--trace") {
                for (i, (a, b)) in trace.iter().enumerate() {
                    println!("{}", json!({"i": i, "in": a, "out": b}));
                }
            } else {
                println!("{}", json!({"events": events, "permutations": trace.len()}));
            }
        }
        "ops" => println!("{}", ops()),
        _ => panic!("seeds|prove|ops"),
    }
}
