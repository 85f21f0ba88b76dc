pragma circom 2.0.0;

include "circomlib/circuits/poseidon.circom";

// hash = Poseidon(secret[0], secret[1], nonce): a private preimage bound to a public nonce.
template PoseidonHash() {
    signal input secret[2];
    signal input nonce;
    signal output hash;

    component h = Poseidon(3);
    h.inputs[0] <== secret[0];
    h.inputs[1] <== secret[1];
    h.inputs[2] <== nonce;
    hash <== h.out;
}

component main {public [nonce]} = PoseidonHash();
