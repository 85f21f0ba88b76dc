//! naga-check: every WGSL module the package can hand to `createShaderModule`, through naga (the
//! shader compiler of wgpu, so of Firefox's and Deno's WebGPU) as those browsers run it: parse,
//! validate (WebGPU's baseline capabilities), then per pipeline (entry point + `override` values)
//! `process_overrides` and translation to MSL (Metal: Firefox on macOS), HLSL (D3D12: Firefox on
//! Windows; shader models 5.1 for FXC and 6.0 for DXC) and SPIR-V (Vulkan: Linux, Android).
//!
//!   naga-check MANIFEST [--out DIR] [--jobs N]
//!
//! MANIFEST: one pipeline a line, tab-separated: `file  entry  overrides  label`, where `file` is a
//! WGSL file beside the manifest, `overrides` is `NAME=VALUE,...` or `-`, and `label` names the
//! kernel and variant in reports. Lines sharing a file share one parse and validation.
//! Prints `ok\tLABEL` or `fail\tLABEL\tSTAGE\tMESSAGE` (newlines in MESSAGE as `\n`) per line, then
//! a summary; exits 1 if any failed, 2 on a usage or manifest error. With `--out`, each pipeline's
//! translations are written there as `<n>.metal`, `<n>.sm51.hlsl`, `<n>.sm60.hlsl`, `<n>.spv`.
//!
//! Options follow wgpu-hal's backends with WebGPU's runtime checks on (bounds checks `Restrict`,
//! workgroup memory zero-initialised, loops bounded), as a browser creates its modules.
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use naga::back::{hlsl, msl, spv};
use naga::proc::{BoundsCheckPolicies, BoundsCheckPolicy};
use naga::valid::{Capabilities, ModuleInfo, ValidationFlags, Validator};
use naga::{AddressSpace, Module, ShaderStage, StorageAccess};

struct Pipeline {
    line: usize,
    entry: String,
    overrides: Vec<(String, f64)>,
    label: String,
}

struct Outcome {
    line: usize,
    label: String,
    /// (stage, message) on failure
    error: Option<(&'static str, String)>,
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut manifest: Option<PathBuf> = None;
    let mut out: Option<PathBuf> = None;
    let mut jobs = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let mut i = 1;
    while i < args.len() {
        match args[i].as_str() {
            "--out" if i + 1 < args.len() => {
                out = Some(PathBuf::from(&args[i + 1]));
                i += 1;
            }
            "--jobs" if i + 1 < args.len() => {
                jobs = args[i + 1]
                    .parse()
                    .unwrap_or_else(|_| usage("--jobs takes a number"));
                i += 1;
            }
            a if !a.starts_with("--") && manifest.is_none() => manifest = Some(PathBuf::from(a)),
            a => usage(&format!("unexpected argument {a}")),
        }
        i += 1;
    }
    let manifest = manifest.unwrap_or_else(|| usage("no manifest given"));
    let dir = manifest.parent().map(Path::to_path_buf).unwrap_or_default();
    let text = std::fs::read_to_string(&manifest)
        .unwrap_or_else(|e| usage(&format!("{}: {e}", manifest.display())));
    // Pipelines by file, in first-seen order, so each file is parsed and validated once.
    let mut files: Vec<(String, Vec<Pipeline>)> = Vec::new();
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    for (n, raw) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let cols: Vec<&str> = raw.split('\t').collect();
        if cols.len() != 4 {
            usage(&format!(
                "manifest line {}: expected 4 tab-separated columns, got {}",
                n + 1,
                cols.len()
            ));
        }
        let overrides = if cols[2] == "-" {
            Vec::new()
        } else {
            cols[2]
                .split(',')
                .map(|kv| {
                    let (k, v) = kv.split_once('=').unwrap_or_else(|| {
                        usage(&format!("manifest line {}: bad override {kv}", n + 1))
                    });
                    (
                        k.to_string(),
                        v.parse::<f64>().unwrap_or_else(|_| {
                            usage(&format!("manifest line {}: bad value {v}", n + 1))
                        }),
                    )
                })
                .collect()
        };
        let p = Pipeline {
            line: n,
            entry: cols[1].to_string(),
            overrides,
            label: cols[3].to_string(),
        };
        let at = *index.entry(cols[0].to_string()).or_insert_with(|| {
            files.push((cols[0].to_string(), Vec::new()));
            files.len() - 1
        });
        files[at].1.push(p);
    }
    if let Some(o) = &out {
        std::fs::create_dir_all(o).unwrap_or_else(|e| usage(&format!("{}: {e}", o.display())));
    }

    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::<Outcome>::new());
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some((file, pipelines)) = files.get(k) else {
                        break;
                    };
                    let got = check_file(&dir.join(file), file, pipelines, out.as_deref());
                    results.lock().unwrap().extend(got);
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|r| r.line);
    let mut failed = 0;
    for r in &results {
        match &r.error {
            None => println!("ok\t{}", r.label),
            Some((stage, msg)) => {
                failed += 1;
                println!(
                    "fail\t{}\t{}\t{}",
                    r.label,
                    stage,
                    msg.trim_end()
                        .replace('\\', "\\\\")
                        .replace('\n', "\\n")
                        .replace('\t', " ")
                );
            }
        }
    }
    eprintln!(
        "naga-check (naga {}): {} modules, {} pipelines, {} failed",
        NAGA_VERSION,
        files.len(),
        results.len(),
        failed
    );
    std::process::exit(if failed > 0 { 1 } else { 0 });
}

/// The naga this binary links (Cargo.toml pins it; Cargo.lock holds it).
const NAGA_VERSION: &str = "30.0.2";

fn usage(msg: &str) -> ! {
    eprintln!("naga-check: {msg}\nusage: naga-check MANIFEST [--out DIR] [--jobs N]");
    std::process::exit(2)
}

fn fail(pipelines: &[Pipeline], stage: &'static str, msg: String) -> Vec<Outcome> {
    pipelines
        .iter()
        .map(|p| Outcome {
            line: p.line,
            label: p.label.clone(),
            error: Some((stage, msg.clone())),
        })
        .collect()
}

fn check_file(path: &Path, name: &str, pipelines: &[Pipeline], out: Option<&Path>) -> Vec<Outcome> {
    let source = match std::fs::read_to_string(path) {
        Ok(s) => s,
        Err(e) => return fail(pipelines, "read", format!("{}: {e}", path.display())),
    };
    let module = match naga::front::wgsl::parse_str(&source) {
        Ok(m) => m,
        Err(e) => return fail(pipelines, "wgsl", e.emit_to_string_with_path(&source, name)),
    };
    // wgpu-core validates a module once, at createShaderModule, with the device's capabilities:
    // a WebGPU device without optional features has naga's defaults.
    let info =
        match Validator::new(ValidationFlags::all(), Capabilities::default()).validate(&module) {
            Ok(i) => i,
            Err(e) => {
                return fail(
                    pipelines,
                    "validate",
                    e.emit_to_string_with_path(&source, name),
                );
            }
        };
    pipelines
        .iter()
        .map(|p| Outcome {
            line: p.line,
            label: p.label.clone(),
            error: check_pipeline(&module, &info, &source, name, p, out).err(),
        })
        .collect()
}

/// One pipeline: the overrides applied for its entry point (wgpu-hal does this per backend), then each target.
fn check_pipeline(
    module: &Module,
    info: &ModuleInfo,
    source: &str,
    name: &str,
    p: &Pipeline,
    out: Option<&Path>,
) -> Result<(), (&'static str, String)> {
    let stage = module
        .entry_points
        .iter()
        .find(|ep| ep.name == p.entry)
        .map(|ep| ep.stage)
        .ok_or(("entry", format!("no entry point {} in {name}", p.entry)))?;
    if stage != ShaderStage::Compute {
        return Err(("entry", format!("{} is not a compute entry point", p.entry)));
    }
    let mut constants = naga::back::PipelineConstants::default();
    for (k, v) in &p.overrides {
        constants.insert(k.clone(), *v);
    }
    let (module, info) = naga::back::pipeline_constants::process_overrides(
        module,
        info,
        Some((stage, &p.entry)),
        &constants,
    )
    .map_err(|e| ("overrides", format!("{e}: {e:?}\n{}", source_hint(source))))?;
    let checks = BoundsCheckPolicies {
        index: BoundsCheckPolicy::Restrict,
        buffer: BoundsCheckPolicy::Restrict,
        image_load: BoundsCheckPolicy::Restrict,
        binding_array: BoundsCheckPolicy::Unchecked,
    };
    let ep = (stage, p.entry.clone());

    // Metal: wgpu-hal passes the layout's buffer slots and a sizes buffer (arrayLength) per entry point.
    let msl_options = msl::Options {
        lang_version: (3, 1),
        per_entry_point_map: msl::EntryPointResourceMap::from([(
            p.entry.clone(),
            msl_resources(&module),
        )]),
        fake_missing_bindings: false,
        bounds_check_policies: checks,
        zero_initialize_workgroup_memory: true,
        force_loop_bounding: true,
        ..Default::default()
    };
    let msl_pipeline = msl::PipelineOptions {
        entry_point: Some(ep.clone()),
        ..Default::default()
    };
    let (metal, _) = msl::write_string(&module, &info, &msl_options, &msl_pipeline)
        .map_err(|e| ("msl", format!("{e}: {e:?}")))?;

    // D3D12: FXC takes shader model 5.1, DXC 6.0 and up; a browser may use either.
    let mut hlsl_out = Vec::new();
    for (model, tag) in [
        (hlsl::ShaderModel::V5_1, "hlsl (SM 5.1)"),
        (hlsl::ShaderModel::V6_0, "hlsl (SM 6.0)"),
    ] {
        let options = hlsl::Options {
            shader_model: model,
            zero_initialize_workgroup_memory: true,
            restrict_indexing: true,
            force_loop_bounding: true,
            ..Default::default()
        };
        let pipeline = hlsl::PipelineOptions {
            entry_point: Some(ep.clone()),
        };
        let mut text = String::new();
        hlsl::Writer::new(&mut text, &options, &pipeline)
            .write(&module, &info, None)
            .map_err(|e| (tag, format!("{e}: {e:?}")))?;
        hlsl_out.push(text);
    }

    // Vulkan: SPIR-V 1.0, workgroup memory zeroed by the polyfill (no VK_KHR_zero_initialize_workgroup_memory assumed).
    let spv_options = spv::Options {
        flags: spv::WriterFlags::ADJUST_COORDINATE_SPACE
            | spv::WriterFlags::LABEL_VARYINGS
            | spv::WriterFlags::CLAMP_FRAG_DEPTH,
        bounds_check_policies: checks,
        zero_initialize_workgroup_memory: spv::ZeroInitializeWorkgroupMemoryMode::Polyfill,
        force_loop_bounding: true,
        ..Default::default()
    };
    let spv_pipeline = spv::PipelineOptions {
        shader_stage: stage,
        entry_point: p.entry.clone(),
    };
    let words = spv::write_vec(&module, &info, &spv_options, Some(&spv_pipeline))
        .map_err(|e| ("spv", format!("{e}: {e:?}")))?;

    if let Some(dir) = out {
        let base = dir.join(format!("{}", p.line));
        let write = |ext: &str, bytes: &[u8]| {
            std::fs::write(base.with_extension(ext), bytes).map_err(|e| ("write", e.to_string()))
        };
        write("metal", metal.as_bytes())?;
        write("sm51.hlsl", hlsl_out[0].as_bytes())?;
        write("sm60.hlsl", hlsl_out[1].as_bytes())?;
        write(
            "spv",
            &words
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .collect::<Vec<u8>>(),
        )?;
    }
    Ok(())
}

/// The first line of the module (its kernel's preamble comment), to place an error without spans.
fn source_hint(source: &str) -> &str {
    source.lines().next().unwrap_or("")
}

/// Buffer slots as wgpu-hal's Metal backend lays out one bind group's buffers: in binding order,
/// then the sizes buffer that runtime-sized arrays (`arrayLength`, bounds checks) read.
fn msl_resources(module: &Module) -> msl::EntryPointResources {
    let mut bound: Vec<(naga::ResourceBinding, bool)> = module
        .global_variables
        .iter()
        .filter_map(|(_, v)| {
            let mutable = matches!(v.space, AddressSpace::Storage { access } if access.contains(StorageAccess::STORE));
            v.binding.map(|b| (b, mutable))
        })
        .collect();
    bound.sort_by_key(|(b, _)| (b.group, b.binding));
    let mut resources = msl::BindingMap::new();
    for (slot, (b, mutable)) in bound.iter().enumerate() {
        resources.insert(
            *b,
            msl::BindTarget {
                buffer: Some(slot as msl::Slot),
                mutable: *mutable,
                ..Default::default()
            },
        );
    }
    msl::EntryPointResources {
        resources,
        immediates_buffer: None,
        sizes_buffer: Some(bound.len() as msl::Slot),
    }
}
