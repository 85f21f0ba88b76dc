pragma circom 2.0.0;

// out = a · b[0] · b[1] · ... · b[N-1]: N multiplications, one public input (a), one output.
template MultiplierChain(N) {
    signal input a;
    signal input b[N];
    signal output out;

    signal acc[N + 1];
    acc[0] <== a;
    for (var i = 0; i < N; i++) {
        acc[i + 1] <== acc[i] * b[i];
    }
    out <== acc[N];
}

component main {public [a]} = MultiplierChain(16);
