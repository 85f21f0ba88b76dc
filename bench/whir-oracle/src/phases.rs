//! `bench --phases`: a `tracing` layer over `tracing-subscriber`'s registry that times p3's own
//! spans (`#[instrument]`, `info_span!`, debug level included) and sums wall time per span path.
//!
//! Timing: each span from its creation (`on_new_span`) to its close (`on_close`); p3 creates its
//! spans right before entering them (`in_scope` / `#[instrument]`), so this equals enter→exit, and
//! it stays correct when a span is entered on several threads. A span's parent is the span current
//! on the thread that created it; spans made on rayon workers (no current span there) are roots of
//! their own path, `~name`. Exclusive time = inclusive − the inclusive time of its children created
//! on the same thread (worker-thread time overlaps its caller and is not subtracted).
//! `map` turns the per-path INCLUSIVE times of chosen spans into disjoint phases (see README);
//! exclusive times are for `--phases-spans` only.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::thread::ThreadId;
use std::time::{Duration, Instant};

use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id};
use tracing::Subscriber;
use tracing_subscriber::layer::{Context, Layer};
use tracing_subscriber::prelude::*;
use tracing_subscriber::registry::{LookupSpan, Registry};

#[derive(Clone, Copy, Default, Debug)]
pub struct Acc {
    pub incl: f64,
    pub excl: f64,
    pub count: u64,
}

static ACC: Mutex<BTreeMap<String, Acc>> = Mutex::new(BTreeMap::new());

struct Timing {
    start: Instant,
    thread: ThreadId,
    path: String,
    children: Duration,
}

struct RoundField(Option<u64>);
impl Visit for RoundField {
    fn record_u64(&mut self, f: &Field, v: u64) {
        if f.name() == "round_number" {
            self.0 = Some(v);
        }
    }
    fn record_i64(&mut self, f: &Field, v: i64) {
        self.record_u64(f, v as u64);
    }
    fn record_debug(&mut self, _: &Field, _: &dyn std::fmt::Debug) {}
}

struct PhaseLayer;

impl<S: Subscriber + for<'a> LookupSpan<'a>> Layer<S> for PhaseLayer {
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        let span = ctx.span(id).expect("new span");
        let mut round = RoundField(None);
        attrs.record(&mut round);
        let name = match round.0 {
            Some(r) => format!("{}[{r}]", span.name()),
            None => span.name().to_string(),
        };
        let thread = std::thread::current().id();
        let path = match span.parent() {
            Some(p) => {
                let ext = p.extensions();
                let parent = ext.get::<Timing>().map_or("?", |t| t.path.as_str());
                format!("{parent}/{name}")
            }
            None if is_main(thread) => name,
            None => format!("~{name}"),
        };
        span.extensions_mut().insert(Timing { start: Instant::now(), thread, path, children: Duration::ZERO });
    }

    fn on_close(&self, id: Id, ctx: Context<'_, S>) {
        let Some(span) = ctx.span(&id) else { return };
        let Some(t) = span.extensions_mut().remove::<Timing>() else { return };
        let incl = t.start.elapsed();
        if let Some(p) = span.parent() {
            if let Some(pt) = p.extensions_mut().get_mut::<Timing>() {
                if pt.thread == t.thread {
                    pt.children += incl;
                }
            }
        }
        let mut acc = ACC.lock().unwrap();
        let a = acc.entry(t.path).or_default();
        a.incl += incl.as_secs_f64() * 1e3;
        a.excl += incl.saturating_sub(t.children).as_secs_f64() * 1e3;
        a.count += 1;
    }
}

static MAIN: Mutex<Option<ThreadId>> = Mutex::new(None);
fn is_main(t: ThreadId) -> bool {
    *MAIN.lock().unwrap() == Some(t)
}

/// Install the layer as the global subscriber (once, before any span is made).
pub fn install() {
    *MAIN.lock().unwrap() = Some(std::thread::current().id());
    tracing::subscriber::set_global_default(Registry::default().with(PhaseLayer))
        .expect("a global tracing subscriber is already set");
}

/// Everything accumulated since the last call (spans closed so far), and reset.
pub fn take() -> BTreeMap<String, Acc> {
    std::mem::take(&mut *ACC.lock().unwrap())
}

fn r3(x: f64) -> serde_json::Value {
    serde_json::json!((x * 1e3).round() / 1e3)
}

/// Names of the spans p3-whir / p3-sumcheck wrap a codeword's encoding in (transpose, pad, DFT).
const ENCODE: [&str; 5] = ["encode", "dft", "pad", "transpose & pad", "transpose"];

/// The per-path sums of `runs` timed runs as our phase names (ms, MEAN per run). The keys are
/// disjoint and add up to the mean commit + open ms (`commitMs` + `openMs` here are means, not
/// the medians of the bench's top level); see README for the span → phase map. Returns
/// (`phases`, `phasesPerRound`).
pub fn map(sum: &BTreeMap<String, Acc>, runs: f64, commit_ms: f64, open_ms: f64) -> (serde_json::Value, serde_json::Value) {
    let incl = |path: &str| sum.get(path).map_or(0.0, |a| a.incl) / runs;
    let children = |parent: &str, names: &[&str]| -> f64 {
        names.iter().map(|n| incl(&format!("{parent}/{n}"))).sum()
    };
    let grind = "grind for proof-of-work witness";
    let encode: f64 = ENCODE.iter().map(|n| incl(n)).sum();
    let merkle = incl("commit_matrix");
    let claims = incl("record_opening") + incl("ood claims");
    let initial = incl("prove/into_sumcheck");
    let final_all = incl("prove/final_round");
    let final_grind = incl(&format!("prove/final_round/{grind}"));
    let mut rounds = Vec::new();
    let (mut rc, mut rg, mut rf, mut ro, mut r_all) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for i in 0.. {
        let r = format!("prove/round[{i}]");
        if !sum.contains_key(&r) {
            break;
        }
        let all = incl(&r);
        let commit = children(&r, &ENCODE) + incl(&format!("{r}/commit_matrix"));
        let g = incl(&format!("{r}/{grind}"));
        let fold = incl(&format!("{r}/compute_sumcheck_polynomials"));
        let other = all - commit - g - fold;
        rounds.push(serde_json::json!({ "commit": r3(commit), "ood+openings": r3(other), "grind": r3(g), "fold": r3(fold) }));
        (rc, rg, rf, ro, r_all) = (rc + commit, rg + g, rf + fold, ro + other, r_all + all);
    }
    let phases = serde_json::json!({
        "unit": "ms, mean per timed run; disjoint, sum = commitMs + openMs",
        "commitMs": r3(commit_ms), "openMs": r3(open_ms),
        "commit encode": r3(encode), "commit merkle": r3(merkle), "commit other": r3(commit_ms - encode - merkle),
        "claims": r3(claims), "initial fold": r3(initial),
        "rounds commit": r3(rc), "rounds ood+openings": r3(ro), "rounds grind": r3(rg), "rounds fold": r3(rf),
        "final grind": r3(final_grind), "final": r3(final_all - final_grind),
        "open other": r3(open_ms - claims - initial - r_all - final_all),
    });
    (phases, serde_json::Value::Array(rounds))
}
