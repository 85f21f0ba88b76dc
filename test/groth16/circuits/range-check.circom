pragma circom 2.0.0;

include "circomlib/circuits/bitify.circom";
include "circomlib/circuits/comparators.circom";

// Proves lower <= value < upper for a private 32-bit value (Num2Bits range checks and
// LessThan comparators), and outputs value's low byte so the proof carries an output.
template RangeCheck(BITS) {
    signal input value;
    signal input lower;
    signal input upper;
    signal output lowByte;

    component valueBits = Num2Bits(BITS);
    valueBits.in <== value;
    component lowerBits = Num2Bits(BITS);
    lowerBits.in <== lower;
    component upperBits = Num2Bits(BITS);
    upperBits.in <== upper;

    component belowUpper = LessThan(BITS);
    belowUpper.in[0] <== value;
    belowUpper.in[1] <== upper;
    belowUpper.out === 1;

    component belowLower = LessThan(BITS);
    belowLower.in[0] <== value;
    belowLower.in[1] <== lower;
    belowLower.out === 0;

    var byte = 0;
    for (var i = 0; i < 8; i++) {
        byte += valueBits.out[i] * (1 << i);
    }
    lowByte <== byte;
}

component main {public [lower, upper]} = RangeCheck(32);
