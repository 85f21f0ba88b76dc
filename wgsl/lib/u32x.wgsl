// u32x.wgsl: 32x32 -> 64-bit multiply halves for WGSL, which has no mulhi (the low half is plain `a * b`).
// requires:

// High 32 bits of a*b for any a, b (4 partial products of 16-bit halves, carries folded in `mid`).
fn u32x_mulhi(a: u32, b: u32) -> u32 {
  let al = a & 0xffffu; let ah = a >> 16u;
  let bl = b & 0xffffu; let bh = b >> 16u;
  let ll = al * bl; let lh = al * bh; let hl = ah * bl;
  let mid = (ll >> 16u) + (lh & 0xffffu) + (hl & 0xffffu);
  return ah * bh + (lh >> 16u) + (hl >> 16u) + (mid >> 16u);
}

// High 32 bits of a*b for a, b < 2^31. Then al*bh and ah*bl are each < 2^31 - 2^16, so
// al*bh + ah*bl + (al*bl >> 16) < 2^32 - 2^17 cannot overflow: one add chain instead of
// the three masked ones above (about 5 fewer instructions per multiply).
fn u32x_mulhi31(a: u32, b: u32) -> u32 {
  let al = a & 0xffffu; let ah = a >> 16u;
  let bl = b & 0xffffu; let bh = b >> 16u;
  let mid = al * bh + ah * bl + ((al * bl) >> 16u);
  return ah * bh + (mid >> 16u);
}
