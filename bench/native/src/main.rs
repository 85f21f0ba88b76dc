//! native-anchor: native CPU reference timings for webgpu-prover.
//!
//! Plonky3 0.9.0-rc.2 (BabyBear: DFT/LDE/encode, Poseidon2, Merkle commit, PoW grinding) and
//! arkworks 0.5 (BN254 G1 MSM; Groth16 setup and proving on snarkjs's r1cs/zkey/wtns files). One
//! JSON line per measurement on stdout; progress and errors on stderr. See README.md.

mod groth16;
mod msm;
mod p3bench;
mod selftest;
mod util;

use std::time::Instant;

use serde_json::{json, Map, Value};
use util::{maybe_single, Args, Reps};

const USAGE: &str = "\
native-anchor <command> [options]      (one JSON line per measurement on stdout)

commands:
  dft        --log-n 20,22,24 --width 1,8 [--impl radix2_dit_parallel,recursive[,small_batch]]
             [--op dft,coset_lde,encode]
  poseidon2  --count 1048576 [--single]
  merkle     --log-n 20,24 --width 8,16
  grind      --bits 16,20,24 [--single] [--seed S]
  msm        --log-n 10..22 [--single] [--both]
  groth16-setup  --r1cs FILE.r1cs --out FILE.zkey [--seed N]
             Groth16 key in snarkjs's zkey format from toxic waste derived from the seed
             (default 0). BENCHMARKS ONLY: anyone who knows the seed can forge proofs.
  groth16-prove  --zkey FILE.zkey --wtns FILE.wtns [--reps N] [--seed N (for r, s)]
             ark-groth16 proofs (snarkjs's QAP reduction) on all cores: one JSON line
             {ms: [...], verified: bool, ...}, verified = arkworks' check against the key's vk
  groth16-synth  --constraints N --out-r1cs FILE --out-wtns FILE [--seed N]
             a random satisfied R1CS of N multiplication rows (circom's shape) and its witness
  all        GPU-machine suite (selftest, dft, poseidon2, merkle, grind, msm; ~3.5 min on 16 cores)
  selftest   correctness checks against Plonky3 test vectors and naive MSM
  info       machine / build description line

common options:
  --reps N       timed repetitions after the first (cold, warm-up) call (default 5)
  --budget-s S   stop repeating a measurement after S seconds of wall time (min 2 reps)
lists accept '20,22,24', '10..22' (inclusive) or '10-22'.
threads: RAYON_NUM_THREADS (default: all cores); --single runs inside a 1-thread rayon pool.
";

fn reps_from(args: &Args, default: usize) -> Result<Reps, String> {
    let reps = args.usize("--reps", default)?;
    let budget_s = args.opt_f64("--budget-s")?;
    Ok(Reps { reps, budget_s, min_reps: 2.min(reps) })
}

fn info_line() {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("model name")).map(|l| l.split_once(':').map(|x| x.1.trim().to_string()).unwrap_or_default()))
        .unwrap_or_default();
    let mut m = Map::new();
    m.insert("bench".into(), json!("info"));
    m.insert("tool".into(), json!(format!("native-anchor {}", env!("CARGO_PKG_VERSION"))));
    m.insert("cpu".into(), json!(cpu));
    m.insert(
        "logical_cpus".into(),
        json!(std::thread::available_parallelism().map(|n| n.get()).unwrap_or(0)),
    );
    m.insert("threads".into(), json!(rayon::current_num_threads()));
    m.insert("rayon_num_threads_env".into(), json!(std::env::var("RAYON_NUM_THREADS").ok()));
    m.insert("plonky3".into(), json!("0.9.0-rc.2"));
    m.insert("arkworks".into(), json!(msm::ARK_VERSION));
    m.insert("packing".into(), json!(std::any::type_name::<p3bench::P>()));
    m.insert("packing_width".into(), json!(<p3bench::P as p3_field::PackedValue>::WIDTH));
    m.insert("avx2".into(), json!(cfg!(target_feature = "avx2")));
    m.insert("avx512f".into(), json!(cfg!(target_feature = "avx512f")));
    // ark-ff's x86-64 assembly multiplication is compiled in only with BMI2 + ADX target features.
    m.insert("ark_ff_asm".into(), json!(cfg!(all(target_feature = "bmi2", target_feature = "adx"))));
    // What the running CPU could do (runtime detection), e.g. to spot a v3 build on an AVX-512 host.
    m.insert("cpu_has_avx512f".into(), json!(std::arch::is_x86_feature_detected!("avx512f")));
    m.insert("cpu_has_adx".into(), json!(std::arch::is_x86_feature_detected!("adx")));
    util::emit_raw(m);
}

fn run() -> Result<(), String> {
    let args = Args::parse()?;
    fn known<'a>(extra: &[&'a str]) -> Vec<&'a str> {
        ["--reps", "--budget-s"].iter().chain(extra.iter()).cloned().collect()
    }
    match args.cmd.as_str() {
        "help" | "--help" | "-h" => print!("{USAGE}"),
        "info" => {
            args.check_known(&[])?;
            info_line();
        }
        "dft" => {
            args.check_known(&known(&["--log-n", "--width", "--impl", "--op"]))?;
            let log_ns = args.list("--log-n", &[20, 22, 24])?;
            let widths = args.list("--width", &[1, 8])?;
            let impls = args.strs("--impl", p3bench::DFT_IMPLS);
            let ops = args.strs("--op", p3bench::DFT_OPS);
            p3bench::bench_dft(&log_ns, &widths, &impls, &ops, reps_from(&args, 5)?);
        }
        "poseidon2" => {
            args.check_known(&known(&["--count", "--single"]))?;
            let count = args.usize("--count", 1 << 20)?;
            let single = args.flag("--single");
            let reps = reps_from(&args, 5)?;
            maybe_single(single, || p3bench::bench_poseidon2(count, reps, single));
        }
        "merkle" => {
            args.check_known(&known(&["--log-n", "--width"]))?;
            let log_ns = args.list("--log-n", &[20, 24])?;
            let widths = args.list("--width", &[8, 16])?;
            p3bench::bench_merkle(&log_ns, &widths, reps_from(&args, 5)?);
        }
        "grind" => {
            args.check_known(&known(&["--bits", "--single", "--seed"]))?;
            let bits = args.list("--bits", &[16, 20, 24])?;
            if let Some(&b) = bits.iter().find(|&&b| b == 0 || b > 30) {
                return Err(format!("--bits {b}: need 1..=30"));
            }
            let single = args.flag("--single");
            let seed = args.usize("--seed", 0)? as u64;
            let reps = reps_from(&args, 5)?;
            maybe_single(single, || p3bench::bench_grind(&bits, reps, single, seed));
        }
        "msm" => {
            args.check_known(&known(&["--log-n", "--single", "--both"]))?;
            let log_ns = args.list("--log-n", &[10, 12, 14, 16, 18, 20, 22])?;
            let reps = reps_from(&args, 5)?;
            let t = Instant::now();
            let data = msm::MsmData::new(*log_ns.iter().max().unwrap());
            eprintln!("msm: generated 2^{} bases+scalars in {:.1} s", log_ns.iter().max().unwrap(), t.elapsed().as_secs_f64());
            if args.flag("--both") || !args.flag("--single") {
                msm::bench_msm(&data, &log_ns, reps, false);
            }
            if args.flag("--both") || args.flag("--single") {
                msm::bench_msm(&data, &log_ns, reps, true);
            }
        }
        "groth16-setup" => {
            args.check_known(&["--r1cs", "--out", "--seed"])?;
            let r1cs = args.get("--r1cs").ok_or("groth16-setup needs --r1cs FILE")?;
            let out = args.get("--out").ok_or("groth16-setup needs --out FILE")?;
            let seed = args.usize("--seed", 0)? as u64;
            println!("{}", groth16::setup_json(&groth16::setup(r1cs, out, seed)?));
        }
        "groth16-prove" => {
            args.check_known(&["--zkey", "--wtns", "--reps", "--seed"])?;
            let zkey = args.get("--zkey").ok_or("groth16-prove needs --zkey FILE")?;
            let wtns = args.get("--wtns").ok_or("groth16-prove needs --wtns FILE")?;
            let reps = args.usize("--reps", 1)?;
            let seed = args.usize("--seed", 0)? as u64;
            println!("{}", groth16::prove_json(&groth16::prove(zkey, wtns, reps, seed)?));
        }
        "groth16-synth" => {
            args.check_known(&["--constraints", "--out-r1cs", "--out-wtns", "--seed"])?;
            let n = args.usize("--constraints", 1 << 16)?;
            let r1cs = args.get("--out-r1cs").ok_or("groth16-synth needs --out-r1cs FILE")?;
            let wtns = args.get("--out-wtns").ok_or("groth16-synth needs --out-wtns FILE")?;
            let seed = args.usize("--seed", 0)? as u64;
            println!("{}", groth16::synth(n, r1cs, wtns, seed)?);
        }
        "selftest" => {
            args.check_known(&[])?;
            if !selftest::run() {
                return Err("selftest failed".into());
            }
        }
        "all" => {
            args.check_known(&known(&[]))?;
            run_all(&args)?;
        }
        other => return Err(format!("unknown command '{other}'\n\n{USAGE}")),
    }
    Ok(())
}

/// The GPU-machine suite. Sizes are fixed; reps per group are chosen so that the whole run
/// takes about 4 minutes on 16 cores (AVX2 build, measured); `--reps` overrides all of them and
/// `--budget-s` (default 15 s per measurement, setup included) caps each measurement.
fn run_all(args: &Args) -> Result<(), String> {
    let t_all = Instant::now();
    let budget = Some(args.opt_f64("--budget-s")?.unwrap_or(15.0));
    let user_reps = args.opt_usize("--reps")?;
    let reps = |d: usize| Reps { reps: user_reps.unwrap_or(d), budget_s: budget, min_reps: 2.min(user_reps.unwrap_or(d)) };
    let stage = |name: &str, t: Instant| eprintln!("[all] {name} done at {:.1} s", t.elapsed().as_secs_f64());

    info_line();
    if !selftest::run() {
        return Err("selftest failed; not benchmarking".into());
    }
    stage("selftest", t_all);

    let impls: Vec<String> = p3bench::DFT_IMPLS.iter().map(|s| s.to_string()).collect();
    let ops: Vec<String> = p3bench::DFT_OPS.iter().map(|s| s.to_string()).collect();
    p3bench::bench_dft(&[20, 22, 24], &[1, 8], &impls, &ops, reps(5));
    stage("dft", t_all);

    p3bench::bench_poseidon2(1 << 20, reps(10), false);
    maybe_single(true, || p3bench::bench_poseidon2(1 << 20, reps(5), true));
    stage("poseidon2", t_all);

    p3bench::bench_merkle(&[20, 24], &[8, 16], reps(5));
    stage("merkle", t_all);

    // Grind time is random (geometric); many reps make the mean-based hash rate meaningful.
    p3bench::bench_grind(&[16], reps(100), false, 0);
    p3bench::bench_grind(&[20], reps(50), false, 0);
    p3bench::bench_grind(&[24], reps(20), false, 0);
    maybe_single(true, || p3bench::bench_grind(&[16], reps(50), true, 0));
    maybe_single(true, || p3bench::bench_grind(&[20], reps(10), true, 0));
    stage("grind", t_all);

    let t = Instant::now();
    let data = msm::MsmData::new(22);
    eprintln!("[all] msm: generated 2^22 bases+scalars in {:.1} s", t.elapsed().as_secs_f64());
    msm::bench_msm(&data, &(10..=22).collect::<Vec<_>>(), reps(5), false);
    msm::bench_msm(&data, &(10..=16).collect::<Vec<_>>(), reps(5), true);
    stage("msm", t_all);

    let mut m = Map::new();
    m.insert("bench".into(), Value::from("all_done"));
    m.insert("threads".into(), json!(rayon::current_num_threads()));
    m.insert("total_s".into(), json!(util::r3(t_all.elapsed().as_secs_f64())));
    util::emit_raw(m);
    Ok(())
}

fn main() {
    if let Err(e) = run() {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
}
