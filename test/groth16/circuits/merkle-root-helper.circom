pragma circom 2.0.0;

include "merkle.circom";

// Not a fixture: make-fixtures.mjs runs its witness to find the root that merkle-inclusion's
// input must name (the root is a public input there, checked against the path).
component main = MerkleRoot(4);
