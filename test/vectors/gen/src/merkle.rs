//! merkle.json and encode_commit.json.

use p3_commit::Mmcs;
use p3_field::Field;
use p3_matrix::dense::RowMajorMatrix;
use p3_matrix::Matrix;
use p3_merkle_tree::MerkleTreeMmcs;
use serde_json::{json, Value};

use crate::common::*;
use crate::dft::Dfts;
use crate::poseidon::{compress, sponge, Compress, Sponge};

pub type Packing = <F as Field>::Packing;
pub type ValMmcs = MerkleTreeMmcs<Packing, Packing, Sponge, Compress, 2, 8>;

pub fn mmcs(cap_height: usize) -> ValMmcs {
    MerkleTreeMmcs::new(sponge(), compress(), cap_height)
}

fn digests(v: &[[F; 8]]) -> Vec<Vec<u32>> {
    v.iter().map(|d| to_u32(d)).collect()
}

/// Commits `mats` and returns (cap, root-if-single, openings json) after verifying every opening.
pub fn commit_and_open(
    mats: Vec<RowMajorMatrix<F>>,
    cap_height: usize,
    indices: &[usize],
) -> (Vec<Vec<u32>>, Vec<Value>) {
    let m = mmcs(cap_height);
    let dims: Vec<_> = mats.iter().map(|x| x.dimensions()).collect();
    let (commit, data) = m.commit(mats);
    let cap = digests(commit.roots());
    let mut openings = vec![];
    for &i in indices {
        let op = m.open_batch(i, &data);
        m.verify_batch(&commit, &dims, i, (&op).into())
            .expect("opening must verify");
        let (values, proof) = op.unpack();
        let values: Vec<Vec<u32>> = values.iter().map(|r| to_u32(r)).collect();
        openings.push(json!({"index": i, "opened_values": values, "proof": digests(&proof)}));
    }
    (cap, openings)
}

fn dedup_indices(h: usize) -> Vec<usize> {
    let mut v = vec![0, h / 2, h - 1];
    v.sort();
    v.dedup();
    v
}

pub fn generate_merkle() -> (Vec<(&'static str, Value)>, Vec<Value>) {
    let mut cases = vec![];
    let mut seeds = SeedCounter::new(5000);

    // ---- known answers from plonky3.md section 7 ----
    struct Kat {
        id: &'static str,
        mats: Vec<(usize, Vec<u32>)>,
        open: usize,
        cap_height: usize,
        cap: Vec<Vec<u32>>,
        opened: Vec<Vec<u32>>,
        proof: Vec<Vec<u32>>,
    }
    let iota16: Vec<u32> = (0..16).collect();
    let kats = vec![
        Kat {
            id: "merkle-a",
            mats: vec![(1, vec![1, 2, 3, 4])],
            open: 2,
            cap_height: 0,
            cap: vec![vec![
                889613500, 1891403470, 1458667413, 1613984564, 120810272, 450198777, 1802771033,
                1844743909,
            ]],
            opened: vec![vec![3]],
            proof: vec![
                vec![
                    1439614537, 477798995, 715206059, 1786058189, 31409254, 164380687, 1189047645,
                    999258227,
                ],
                vec![
                    401825954, 603965809, 254187886, 1332603869, 434906942, 1401815167, 1018137131,
                    1356969691,
                ],
            ],
        },
        Kat {
            id: "merkle-b",
            mats: vec![(2, iota16.clone())],
            open: 5,
            cap_height: 0,
            cap: vec![vec![
                705062308, 34599041, 1974200951, 1819003507, 1087624970, 1879346871, 1636428192,
                1159593792,
            ]],
            opened: vec![vec![10, 11]],
            proof: vec![
                vec![
                    488406551, 1408627202, 308808023, 123124971, 646331306, 1096203767, 970142236,
                    902126710,
                ],
                vec![
                    409419292, 609081249, 1159920913, 458776110, 400309996, 391753354, 725523607,
                    927967827,
                ],
                vec![
                    803799586, 550139560, 1716778261, 935987038, 161818461, 597986018, 1046556722,
                    620143469,
                ],
            ],
        },
        Kat {
            id: "merkle-c",
            mats: vec![
                (2, iota16.clone()),
                (1, vec![100, 101, 102, 103]),
                (3, vec![200, 201, 202, 203, 204, 205]),
            ],
            open: 5,
            cap_height: 0,
            cap: vec![vec![
                1406283983, 1013931942, 1163377279, 1376184674, 1353828197, 640100417, 517658327,
                952291617,
            ]],
            opened: vec![vec![10, 11], vec![102], vec![203, 204, 205]],
            proof: vec![
                vec![
                    488406551, 1408627202, 308808023, 123124971, 646331306, 1096203767, 970142236,
                    902126710,
                ],
                vec![
                    356694378, 1639185982, 1120716053, 717028543, 640415209, 348278491, 911180958,
                    2002079182,
                ],
                vec![
                    362932601, 246631944, 383789883, 1543334294, 1981819311, 1307477807,
                    1518835946, 308232210,
                ],
            ],
        },
        Kat {
            id: "merkle-d-nonpow2",
            mats: vec![(1, vec![1, 2, 3])],
            open: 2,
            cap_height: 0,
            cap: vec![vec![
                201861894, 807263459, 2003964860, 1487031567, 892688191, 1170485504, 781477613,
                1998286613,
            ]],
            opened: vec![vec![3]],
            proof: vec![
                vec![0; 8],
                vec![
                    401825954, 603965809, 254187886, 1332603869, 434906942, 1401815167, 1018137131,
                    1356969691,
                ],
            ],
        },
        Kat {
            id: "merkle-e-cap1",
            mats: vec![(2, iota16.clone())],
            open: 5,
            cap_height: 1,
            cap: vec![
                vec![
                    803799586, 550139560, 1716778261, 935987038, 161818461, 597986018, 1046556722,
                    620143469,
                ],
                vec![
                    103053799, 1619043177, 1916768743, 2012985585, 1040810845, 577593962,
                    1711532872, 545035908,
                ],
            ],
            opened: vec![vec![10, 11]],
            proof: vec![
                vec![
                    488406551, 1408627202, 308808023, 123124971, 646331306, 1096203767, 970142236,
                    902126710,
                ],
                vec![
                    409419292, 609081249, 1159920913, 458776110, 400309996, 391753354, 725523607,
                    927967827,
                ],
            ],
        },
    ];
    for k in kats {
        let mats: Vec<_> = k
            .mats
            .iter()
            .map(|(w, v)| RowMajorMatrix::new(to_field(v), *w))
            .collect();
        let inputs: Vec<Value> = k
            .mats
            .iter()
            .map(|(w, v)| explicit_input(v, v.len() / w, *w))
            .collect();
        let (cap, openings) = commit_and_open(mats, k.cap_height, &[k.open]);
        assert_eq!(cap, k.cap, "{} cap differs from plonky3.md", k.id);
        assert_eq!(openings[0]["opened_values"], json!(k.opened), "{}", k.id);
        assert_eq!(openings[0]["proof"], json!(k.proof), "{}", k.id);
        let mut c =
            json!({"op": "merkle", "id": k.id, "cap_height": k.cap_height, "inputs": inputs});
        if k.cap_height == 0 {
            c["root"] = json!(cap[0]);
        }
        c["cap"] = json!(cap);
        c["openings"] = json!(openings);
        cases.push(c);
    }

    // ---- single-matrix sweep ----
    for log_h in 0..=12usize {
        for &w in &[1usize, 8, 16, 64] {
            let h = 1 << log_h;
            let s = seeds.take();
            let mat = RowMajorMatrix::new(seeded_field(s, h * w), w);
            let (cap, openings) = commit_and_open(vec![mat], 0, &dedup_indices(h));
            cases.push(json!({
                "op": "merkle", "log_h": log_h, "width": w, "cap_height": 0,
                "inputs": [seeded_input(s, h, w)],
                "root": cap[0], "openings": openings,
            }));
        }
    }

    // ---- mixed-height multi-matrix commits (power-of-two heights) ----
    let mixed: [&[(usize, usize)]; 4] = [
        &[(16, 4), (8, 3), (4, 1)],
        &[(64, 8), (64, 5), (16, 2), (1, 3)],
        &[(4, 2), (32, 1), (8, 16), (32, 7)],
        &[(256, 16), (128, 8), (2, 9)],
    ];
    for (mi, spec) in mixed.iter().enumerate() {
        let mut mats = vec![];
        let mut inputs = vec![];
        for &(h, w) in spec.iter() {
            let s = seeds.take();
            mats.push(RowMajorMatrix::new(seeded_field(s, h * w), w));
            inputs.push(seeded_input(s, h, w));
        }
        let max_h = spec.iter().map(|x| x.0).max().unwrap();
        let (cap, openings) = commit_and_open(mats, 0, &dedup_indices(max_h));
        cases.push(json!({
            "op": "merkle", "id": format!("mixed-{mi}"), "cap_height": 0,
            "inputs": inputs, "root": cap[0], "openings": openings,
        }));
    }

    let extra = vec![
        ("mmcs", json!("MerkleTreeMmcs<Packing, Packing, PaddingFreeSponge<Perm16,16,8,8>, TruncatedPermutation<Perm16,2,8,16>, 2, 8>, Perm16 = default_babybear_poseidon2_16()")),
        ("notes", json!("inputs are the committed matrices in commit order; openings: index is the row index in the tallest matrix, opened_values has one row per matrix in input order (row index >> (log2(max_h) - log2(h_m))), proof lists sibling digests leaf level first; every opening was checked with verify_batch")),
    ];
    (extra, cases)
}

pub fn generate_encode_commit() -> (Vec<(&'static str, Value)>, Vec<Value>) {
    let d = Dfts::new();
    let mut cases = vec![];
    let mut seeds = SeedCounter::new(6000);
    for &log_h in &[0usize, 3, 6, 10] {
        for &w in &[1usize, 8, 16] {
            for added_bits in 1..=2usize {
                let h = 1 << log_h;
                let s = seeds.take();
                let coeffs = RowMajorMatrix::new(seeded_field(s, h * w), w);
                let cw = d.encode(coeffs, added_bits);
                let ch = cw.height();
                let index = (ch * 5) / 8;
                let cw_out = output_matrix(&to_u32(&cw.values), ch, w);
                let (cap, openings) = commit_and_open(vec![cw], 0, &[index]);
                cases.push(json!({
                    "op": "encode_commit", "log_h": log_h, "width": w, "added_bits": added_bits,
                    "input": seeded_input(s, h, w),
                    "codeword": cw_out,
                    "root": cap[0], "opening": openings[0],
                }));
            }
        }
    }
    let extra = vec![
        ("pipeline", json!("codeword = dft_batch(coefficients zero-padded to h*2^added_bits rows) (natural order, no coset, = p3_commit::Encoder::encode_batch); then MerkleTreeMmcs commit of the codeword matrix (cap height 0), same MMCS as merkle.json")),
    ];
    (extra, cases)
}
