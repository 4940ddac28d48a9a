//go:build amd64 && !amd64.v3

#include "textflag.h"

// The four-wide forms of math.Sincos and math.Cos ($GOROOT/src/math/sincos.go
// and sin.go) for |x| < 2²⁹, in AVX: every lane takes the IEEE operations
// the Go code's scalar SSE2 instructions perform, in the same order, each
// rounded (VMULPD, VADDPD, VSUBPD round each lane as MULSD, ADDSD, SUBSD
// do; no fused multiply-add), so that each result is math's bit for bit
// (TestBitForBit). What math computes in integers is computed exactly in
// floating point:
//
//   - j = uint64(x·(4/π)), truncated, is VROUNDPD's truncation of the same
//     product (below 2²⁹·4/π < 2³¹, exact either way);
//   - the odd j made even (j++, y++) is y = 2·⌈t/2⌉ with t = trunc(x·4/π),
//     each step exact;
//   - j mod 8 is read from y + 2⁵² (exact: y < 2³¹), whose low mantissa
//     bits are y's: bit 1 is set for the octants that swap sine and cosine
//     (j = 2, 6), bit 2 for those past π (j = 4, 6). The cosine's sign
//     flips in octants 2 and 4 (the XOR of the two), the sine's past π
//     and for x < 0 (the sign bit of x, so that −0 gives −0, as
//     math.Sincos returns x there).
//
// Lanes with |x| ≥ 2²⁹ (where math reduces by Payne–Hanek), ±Inf or NaN
// get x in both outputs and make the function return true; the Go code
// then computes them with math.* (vtrig.go). VZEROUPPER before returning
// to the Go code's SSE instructions avoids the processor's penalty for
// mixing the two.

#define CONST4(name, v) \
	DATA name<>+0(SB)/8, v; \
	DATA name<>+8(SB)/8, v; \
	DATA name<>+16(SB)/8, v; \
	DATA name<>+24(SB)/8, v; \
	GLOBL name<>(SB), RODATA|NOPTR, $32

CONST4(absmask, $0x7fffffffffffffff)
CONST4(signmask, $0x8000000000000000)
CONST4(thresh, $0x41c0000000000000) // 2²⁹ (math's reduceThreshold)
CONST4(c4pi, $0x3ff45f306dc9c883)   // 4/π
CONST4(half, $0x3fe0000000000000)   // 0.5
CONST4(one, $0x3ff0000000000000)    // 1.0
CONST4(two52, $0x4330000000000000)  // 2⁵²
CONST4(bit1, $0x0000000000000002)
CONST4(bit2, $0x0000000000000004)
CONST4(pi4a, $0x3fe921fb40000000)   // PI4A, PI4B, PI4C: π/4 in three parts
CONST4(pi4b, $0x3e64442d00000000)
CONST4(pi4c, $0x3ce8469898cc5170)
CONST4(sin0, $0x3de5d8fd1fd19ccd)   // _sin[0..5]
CONST4(sin1, $0xbe5ae5e5a9291f5d)
CONST4(sin2, $0x3ec71de3567d48a1)
CONST4(sin3, $0xbf2a01a019bfdf03)
CONST4(sin4, $0x3f8111111110f7d0)
CONST4(sin5, $0xbfc5555555555548)
CONST4(cos0, $0xbda8fa49a0861a9b)   // _cos[0..5]
CONST4(cos1, $0x3e21ee9d7b4e3f05)
CONST4(cos2, $0xbe927e4f7eac4bc6)
CONST4(cos3, $0x3efa01a019c844f5)
CONST4(cos4, $0xbf56c16c16c14f91)
CONST4(cos5, $0x3fa555555555554b)

// KERNEL computes, for the four arguments in Y0: Y2 = the lanes'
// |x| < 2²⁹ mask, Y8 = the sine polynomial's value z + z·zz·P_sin(zz),
// Y9 = the cosine polynomial's 1 − 0.5·zz + zz·zz·P_cos(zz), Y10 = the
// mask of lanes that swap them (j = 2, 6), Y11 = the mask of lanes past π
// (j = 4, 6). Y13 must hold 0, Y15 the absolute-value mask.
#define KERNEL \
	VANDPD   Y15, Y0, Y1 /* ax = |x| */; \
	VCMPPD   $0x11, thresh<>(SB), Y1, Y2 /* ax < 2²⁹, ordered (NaN: false) */; \
	VMULPD   c4pi<>(SB), Y1, Y3 /* ax·(4/π) */; \
	VROUNDPD $3, Y3, Y3 /* t: truncated */; \
	VMULPD   half<>(SB), Y3, Y3; \
	VROUNDPD $2, Y3, Y3 /* ⌈t/2⌉ */; \
	VADDPD   Y3, Y3, Y3 /* y: t, or t + 1 if t is odd */; \
	VMULPD   pi4a<>(SB), Y3, Y4; \
	VSUBPD   Y4, Y1, Y4 /* ax − y·PI4A */; \
	VMULPD   pi4b<>(SB), Y3, Y5; \
	VSUBPD   Y5, Y4, Y4 /* … − y·PI4B */; \
	VMULPD   pi4c<>(SB), Y3, Y5; \
	VSUBPD   Y5, Y4, Y4 /* z = … − y·PI4C */; \
	VMULPD   Y4, Y4, Y5 /* zz = z·z */; \
	VMULPD   sin0<>(SB), Y5, Y6 /* ((((_sin[0]·zz + _sin[1])·zz + … */; \
	VADDPD   sin1<>(SB), Y6, Y6; \
	VMULPD   Y5, Y6, Y6; \
	VADDPD   sin2<>(SB), Y6, Y6; \
	VMULPD   Y5, Y6, Y6; \
	VADDPD   sin3<>(SB), Y6, Y6; \
	VMULPD   Y5, Y6, Y6; \
	VADDPD   sin4<>(SB), Y6, Y6; \
	VMULPD   Y5, Y6, Y6; \
	VADDPD   sin5<>(SB), Y6, Y6 /* … + _sin[5] */; \
	VMULPD   cos0<>(SB), Y5, Y7 /* the same with _cos */; \
	VADDPD   cos1<>(SB), Y7, Y7; \
	VMULPD   Y5, Y7, Y7; \
	VADDPD   cos2<>(SB), Y7, Y7; \
	VMULPD   Y5, Y7, Y7; \
	VADDPD   cos3<>(SB), Y7, Y7; \
	VMULPD   Y5, Y7, Y7; \
	VADDPD   cos4<>(SB), Y7, Y7; \
	VMULPD   Y5, Y7, Y7; \
	VADDPD   cos5<>(SB), Y7, Y7; \
	VMULPD   Y5, Y4, Y8 /* z·zz */; \
	VMULPD   Y6, Y8, Y8 /* (z·zz)·P_sin */; \
	VADDPD   Y8, Y4, Y8 /* sine: z + … */; \
	VMULPD   half<>(SB), Y5, Y9 /* 0.5·zz */; \
	VMOVUPD  one<>(SB), Y10; \
	VSUBPD   Y9, Y10, Y9 /* 1 − 0.5·zz */; \
	VMULPD   Y5, Y5, Y10 /* zz·zz */; \
	VMULPD   Y7, Y10, Y10 /* (zz·zz)·P_cos */; \
	VADDPD   Y10, Y9, Y9 /* cosine: (1 − 0.5·zz) + … */; \
	VADDPD   two52<>(SB), Y3, Y3 /* y's bits */; \
	VANDPD   bit1<>(SB), Y3, Y10; \
	VCMPPD   $4, Y13, Y10, Y10 /* swap: j mod 8 = 2 or 6 */; \
	VANDPD   bit2<>(SB), Y3, Y11; \
	VCMPPD   $4, Y13, Y11, Y11            /* past π: j mod 8 = 4 or 6 */

// func sincosAVX(s, c, x *float64, n int) (bad bool)
TEXT ·sincosAVX(SB), NOSPLIT, $0-33
	MOVQ    s+0(FP), DI
	MOVQ    c+8(FP), SI
	MOVQ    x+16(FP), DX
	MOVQ    n+24(FP), CX
	XORQ    BX, BX
	MOVL    $15, AX // the AND of the lanes' in-range bits
	VXORPD  Y13, Y13, Y13
	VMOVUPD signmask<>(SB), Y14
	VMOVUPD absmask<>(SB), Y15
	CMPQ    CX, $0
	JLE     sdone

sloop:
	VMOVUPD   (DX)(BX*8), Y0
	KERNEL
	VMOVMSKPD Y2, R8
	ANDL      R8, AX
	VXORPD    Y10, Y11, Y12
	VANDPD    Y14, Y12, Y12        // the cosine's sign: octants 2, 4
	VANDPD    Y14, Y11, Y11
	VANDPD    Y14, Y0, Y1
	VXORPD    Y1, Y11, Y11         // the sine's sign: past π, x < 0
	VBLENDVPD Y10, Y9, Y8, Y6      // sine: the cosine polynomial where swapped
	VBLENDVPD Y10, Y8, Y9, Y7      // cosine: the sine polynomial where swapped
	VXORPD    Y11, Y6, Y6
	VXORPD    Y12, Y7, Y7
	VBLENDVPD Y2, Y6, Y0, Y6       // x where out of range
	VBLENDVPD Y2, Y7, Y0, Y7
	VMOVUPD   Y6, (DI)(BX*8)
	VMOVUPD   Y7, (SI)(BX*8)
	ADDQ      $4, BX
	CMPQ      BX, CX
	JLT       sloop

sdone:
	VZEROUPPER
	CMPL AX, $15
	SETNE bad+32(FP)
	RET

// func cosAVX(c, x *float64, n int) (bad bool)
TEXT ·cosAVX(SB), NOSPLIT, $0-25
	MOVQ    c+0(FP), SI
	MOVQ    x+8(FP), DX
	MOVQ    n+16(FP), CX
	XORQ    BX, BX
	MOVL    $15, AX
	VXORPD  Y13, Y13, Y13
	VMOVUPD signmask<>(SB), Y14
	VMOVUPD absmask<>(SB), Y15
	CMPQ    CX, $0
	JLE     cdone

cloop:
	VMOVUPD   (DX)(BX*8), Y0
	KERNEL
	VMOVMSKPD Y2, R8
	ANDL      R8, AX
	VXORPD    Y10, Y11, Y12
	VANDPD    Y14, Y12, Y12
	VBLENDVPD Y10, Y8, Y9, Y7
	VXORPD    Y12, Y7, Y7
	VBLENDVPD Y2, Y7, Y0, Y7
	VMOVUPD   Y7, (SI)(BX*8)
	ADDQ      $4, BX
	CMPQ      BX, CX
	JLT       cloop

cdone:
	VZEROUPPER
	CMPL AX, $15
	SETNE bad+24(FP)
	RET
