//! Timing, argument parsing, RNG and JSON output helpers.

use std::time::Instant;

use serde_json::{Map, Value};

/// Small, fast, deterministic RNG (SplitMix64). Only used to make benchmark inputs.
#[derive(Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform value in [0, 2^31 - 2^27 + 1) (BabyBear canonical range), by rejection.
    #[inline]
    pub fn babybear_u32(&mut self) -> u32 {
        const P: u32 = 0x7800_0001;
        loop {
            let x = (self.next_u64() >> 33) as u32; // 31 bits
            if x < P {
                return x;
            }
        }
    }
}

/// Result of one timed measurement.
pub struct Stats {
    /// Duration of the first (cold) call, ms. Not part of best/median.
    pub first_ms: f64,
    /// Durations of the timed repetitions, ms, in run order.
    pub times: Vec<f64>,
}

impl Stats {
    pub fn best(&self) -> f64 {
        self.times.iter().cloned().fold(f64::INFINITY, f64::min)
    }
    pub fn median(&self) -> f64 {
        let mut t = self.times.clone();
        t.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let n = t.len();
        if n == 0 {
            return f64::NAN;
        }
        if n % 2 == 1 {
            t[n / 2]
        } else {
            0.5 * (t[n / 2 - 1] + t[n / 2])
        }
    }
    pub fn mean(&self) -> f64 {
        self.times.iter().sum::<f64>() / self.times.len() as f64
    }
    pub fn total(&self) -> f64 {
        self.times.iter().sum::<f64>()
    }
}

/// How many repetitions to run, with an optional wall-clock budget per measurement.
#[derive(Clone, Copy, Debug)]
pub struct Reps {
    /// Timed repetitions after the first (cold / warm-up) call.
    pub reps: usize,
    /// Stop early (but after at least `min_reps`) once this many seconds of wall time
    /// (setup included) have been spent on this measurement. `None` = no budget.
    pub budget_s: Option<f64>,
    pub min_reps: usize,
}

/// Run `setup` (untimed) then `run` (timed) once as the cold/warm-up call, then up to
/// `reps.reps` more times. The output of `run` is dropped outside the timed region.
/// `setup` gets the call index (0 = first call).
pub fn measure<I, O>(
    reps: Reps,
    mut setup: impl FnMut(usize) -> I,
    mut run: impl FnMut(I) -> O,
    mut inspect: impl FnMut(usize, &O, f64),
) -> Stats {
    let wall = Instant::now();
    let input = setup(0);
    let t = Instant::now();
    let out = run(input);
    let first_ms = t.elapsed().as_secs_f64() * 1e3;
    inspect(0, &out, first_ms);
    drop(out);
    let mut times = Vec::with_capacity(reps.reps);
    for i in 1..=reps.reps {
        if let Some(b) = reps.budget_s {
            if times.len() >= reps.min_reps.max(1) && wall.elapsed().as_secs_f64() > b {
                break;
            }
        }
        let input = setup(i);
        let t = Instant::now();
        let out = run(input);
        let ms = t.elapsed().as_secs_f64() * 1e3;
        inspect(i, &out, ms);
        drop(out);
        times.push(ms);
    }
    Stats { first_ms, times }
}

/// Round to 3 decimals for compact JSON.
pub fn r3(x: f64) -> f64 {
    (x * 1e3).round() / 1e3
}

/// Build a JSON object line with the common fields at the end.
pub fn emit(bench: &str, params: Vec<(&str, Value)>, threads: usize, st: &Stats, extra: Vec<(&str, Value)>) {
    let mut m = Map::new();
    m.insert("bench".into(), Value::from(bench));
    for (k, v) in params {
        m.insert(k.into(), v);
    }
    m.insert("threads".into(), Value::from(threads));
    m.insert("ms_best".into(), Value::from(r3(st.best())));
    m.insert("ms_median".into(), Value::from(r3(st.median())));
    m.insert("reps".into(), Value::from(st.times.len()));
    m.insert("first_call_ms".into(), Value::from(r3(st.first_ms)));
    for (k, v) in extra {
        m.insert(k.into(), v);
    }
    println!("{}", Value::Object(m));
}

pub fn emit_raw(m: Map<String, Value>) {
    println!("{}", Value::Object(m));
}

/// Parse "20,22,24", "10..22" (inclusive), "10-22" or mixes like "10..12,16".
pub fn parse_list(s: &str) -> Result<Vec<usize>, String> {
    let mut out = Vec::new();
    for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let range = part.split_once("..=").or_else(|| part.split_once("..")).or_else(|| part.split_once('-'));
        if let Some((a, b)) = range {
            let a: usize = a.trim().parse().map_err(|_| format!("bad number in '{part}'"))?;
            let b: usize = b.trim().parse().map_err(|_| format!("bad number in '{part}'"))?;
            if b < a {
                return Err(format!("empty range '{part}'"));
            }
            out.extend(a..=b);
        } else {
            out.push(part.parse().map_err(|_| format!("bad number '{part}'"))?);
        }
    }
    if out.is_empty() {
        return Err(format!("empty list '{s}'"));
    }
    Ok(out)
}

/// Parsed command line: `native-anchor <cmd> [--key value | --flag]...`.
pub struct Args {
    pub cmd: String,
    kv: Vec<(String, Option<String>)>,
}

const FLAGS: &[&str] = &["--single", "--help", "-h", "--both"];

impl Args {
    pub fn parse() -> Result<Args, String> {
        let mut it = std::env::args().skip(1);
        let cmd = it.next().unwrap_or_else(|| "help".to_string());
        let mut kv = Vec::new();
        let rest: Vec<String> = it.collect();
        let mut i = 0;
        while i < rest.len() {
            let a = &rest[i];
            if !a.starts_with('-') {
                return Err(format!("unexpected argument '{a}'"));
            }
            if let Some((k, v)) = a.split_once('=') {
                kv.push((k.to_string(), Some(v.to_string())));
                i += 1;
            } else if FLAGS.contains(&a.as_str()) {
                kv.push((a.clone(), None));
                i += 1;
            } else {
                let v = rest.get(i + 1).ok_or_else(|| format!("missing value for {a}"))?;
                kv.push((a.clone(), Some(v.clone())));
                i += 2;
            }
        }
        Ok(Args { cmd, kv })
    }

    pub fn check_known(&self, known: &[&str]) -> Result<(), String> {
        for (k, _) in &self.kv {
            if !known.contains(&k.as_str()) {
                return Err(format!("unknown option '{k}' for '{}' (known: {})", self.cmd, known.join(" ")));
            }
        }
        Ok(())
    }

    pub fn get(&self, key: &str) -> Option<&str> {
        self.kv.iter().rev().find(|(k, _)| k == key).and_then(|(_, v)| v.as_deref())
    }
    pub fn flag(&self, key: &str) -> bool {
        self.kv.iter().any(|(k, _)| k == key)
    }
    pub fn list(&self, key: &str, default: &[usize]) -> Result<Vec<usize>, String> {
        match self.get(key) {
            Some(s) => parse_list(s),
            None => Ok(default.to_vec()),
        }
    }
    pub fn usize(&self, key: &str, default: usize) -> Result<usize, String> {
        match self.get(key) {
            Some(s) => s.parse().map_err(|_| format!("bad value for {key}: '{s}'")),
            None => Ok(default),
        }
    }
    pub fn opt_usize(&self, key: &str) -> Result<Option<usize>, String> {
        self.get(key).map(|s| s.parse().map_err(|_| format!("bad value for {key}: '{s}'"))).transpose()
    }
    pub fn opt_f64(&self, key: &str) -> Result<Option<f64>, String> {
        self.get(key).map(|s| s.parse().map_err(|_| format!("bad value for {key}: '{s}'"))).transpose()
    }
    pub fn strs(&self, key: &str, default: &[&str]) -> Vec<String> {
        match self.get(key) {
            Some(s) => s.split(',').map(|x| x.trim().to_string()).filter(|x| !x.is_empty()).collect(),
            None => default.iter().map(|s| s.to_string()).collect(),
        }
    }
}

/// Run `f` inside a dedicated 1-thread rayon pool if `single`, else on the global pool.
pub fn maybe_single<R: Send>(single: bool, f: impl FnOnce() -> R + Send) -> R {
    if single {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("1-thread pool");
        pool.install(f)
    } else {
        f()
    }
}
