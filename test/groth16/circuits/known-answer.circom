pragma circom 2.0.0;

// The groth16 family's self-check circuit (src/checks/known-groth16.gen.ts, made by
// scripts/gen-known-groth16.ts): three constraints, one public output and one public input.
template KnownAnswer() {
    signal input a;
    signal input b;
    signal input k;
    signal t;
    signal u;
    signal output c;
    t <== a * b;
    u <== t * k;
    c <== u * a + b;
}

component main { public [k] } = KnownAnswer();
