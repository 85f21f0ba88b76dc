pragma circom 2.0.0;

include "circomlib/circuits/poseidon.circom";
include "circomlib/circuits/mux1.circom";

// The root of a Poseidon Merkle tree of depth DEPTH from the leaf Poseidon(secret) and its path:
// pathIndices[i] = 0 puts the running node on the left of pathElements[i], 1 on the right.
// Shared by merkle-inclusion.circom and merkle-root-helper.circom (make-fixtures.mjs's root finder).
template MerkleRoot(DEPTH) {
    signal input secret;
    signal input pathElements[DEPTH];
    signal input pathIndices[DEPTH];
    signal output root;

    component leaf = Poseidon(1);
    leaf.inputs[0] <== secret;

    component left[DEPTH];
    component right[DEPTH];
    component hashes[DEPTH];
    signal level[DEPTH + 1];
    level[0] <== leaf.out;
    for (var i = 0; i < DEPTH; i++) {
        // Each index is a bit.
        pathIndices[i] * (pathIndices[i] - 1) === 0;
        left[i] = Mux1();
        left[i].c[0] <== level[i];
        left[i].c[1] <== pathElements[i];
        left[i].s <== pathIndices[i];
        right[i] = Mux1();
        right[i].c[0] <== pathElements[i];
        right[i].c[1] <== level[i];
        right[i].s <== pathIndices[i];
        hashes[i] = Poseidon(2);
        hashes[i].inputs[0] <== left[i].out;
        hashes[i].inputs[1] <== right[i].out;
        level[i + 1] <== hashes[i].out;
    }
    root <== level[DEPTH];
}
