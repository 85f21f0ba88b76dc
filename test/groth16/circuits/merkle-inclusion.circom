pragma circom 2.0.0;

include "merkle.circom";

// Membership of leaf = Poseidon(secret) in the Poseidon Merkle tree of depth DEPTH with the public
// root, and a nullifier Poseidon(secret, topic) for a public topic (the output).
template MerkleInclusion(DEPTH) {
    signal input secret;
    signal input pathElements[DEPTH];
    signal input pathIndices[DEPTH];
    signal input root;
    signal input topic;
    signal output nullifier;

    component tree = MerkleRoot(DEPTH);
    tree.secret <== secret;
    for (var i = 0; i < DEPTH; i++) {
        tree.pathElements[i] <== pathElements[i];
        tree.pathIndices[i] <== pathIndices[i];
    }
    root === tree.root;

    component nullifierHash = Poseidon(2);
    nullifierHash.inputs[0] <== secret;
    nullifierHash.inputs[1] <== topic;
    nullifier <== nullifierHash.out;
}

component main {public [root, topic]} = MerkleInclusion(4);
