/**
 * 64-bit FNV-1a of a string's UTF-16 code units, as 16 lowercase hex digits. Not a cryptographic hash: it names
 * a value (a receipt's decided input) without `node:crypto`, which costs a hook more to load than the whole
 * decision. Whatever must resist a forger is a SHA-256 (`./hash.ts`).
 */
export function fnv1a64Hex(s: string): string {
  // BigInt-free: two 32-bit lanes of the 64-bit product (offset basis 0xcbf29ce484222325, prime 0x100000001b3)
  let hi = 0xcbf29ce4;
  let lo = 0x84222325;
  for (let i = 0; i < s.length; i++) {
    lo = (lo ^ s.charCodeAt(i)) >>> 0;
    // (hi:lo) * 0x100000001b3 = (hi:lo) * 0x1b3 + (lo << 40)
    const loMul = lo * 0x1b3;
    const carry = Math.floor(loMul / 0x100000000);
    const newLo = loMul >>> 0;
    hi = (Math.imul(hi, 0x1b3) + carry + ((lo << 8) >>> 0)) >>> 0;
    lo = newLo;
  }
  return hi.toString(16).padStart(8, "0") + lo.toString(16).padStart(8, "0");
}
