#include "textflag.h"

// The elementwise functions of dense_math.go in AVX2 with FMA (four
// float64 or eight float32 lanes) and AVX-512 (eight or sixteen): the
// same algorithm, the same operations in the same order on every lane
// and in the Go of dense_math.go, so that the AVX2 and AVX-512 paths give
// the same bits (and the Go path too where its compiler fuses the same
// multiply-adds). n is a multiple of the lanes; dense_math.go pads the
// rest. A function returning bad has left lanes it does not take (|x| at
// or beyond the Cody–Waite limit, ±Inf, NaN) to the Go code, which
// computes them with the math package.
//
// Sines and cosines (float64): math.Sincos's reduction by π/4 in three
// parts (PI4A, PI4B, PI4C), each product rounded apart as math rounds it,
// so the reduced argument z is math's to the bit, then math's polynomials
// in Horner's form with fused multiply-adds: sine z + (z·zz)·P_s(zz),
// cosine (1 − zz/2) + (zz·zz)·P_c(zz). The octant j = 2·⌈⌊|x|·4/π⌋/2⌉
// (exact below 2²⁹) is read from y + 2⁵²: bit 1 swaps sine and cosine,
// bit 2 is past π.
//
// Sines and cosines (float32): the same octants, the reduction by π/4 in
// three float32 parts (Cephes' DP1, DP2, DP3) by fused multiply-adds, y·DP1
// exact below 2¹⁵, and Cephes' float32 polynomials.
//
// Exponentials: n = round(x·log₂e) by adding 1.5·2⁵² (1.5·2²³), r = x −
// n·ln2 in two parts by fused multiply-adds, e^r by its Taylor polynomial
// of degree 13 (7) on |r| ≤ ln2/2, and the scale 2ⁿ as 2^⌊n/2⌋·2^(n−⌊n/2⌋),
// two multiplications by powers of two built in the exponent bits, so
// that subnormal results are rounded once. x is first clamped to
// [−746, 710] ([−104, 89]), beyond which e^x is 0 or +Inf; NaN stays NaN.

#define CONST4(name, v) \
	DATA name<>+0(SB)/8, v; \
	DATA name<>+8(SB)/8, v; \
	DATA name<>+16(SB)/8, v; \
	DATA name<>+24(SB)/8, v; \
	GLOBL name<>(SB), RODATA|NOPTR, $32

#define CONST8(name, v) \
	DATA name<>+0(SB)/4, v; \
	DATA name<>+4(SB)/4, v; \
	DATA name<>+8(SB)/4, v; \
	DATA name<>+12(SB)/4, v; \
	DATA name<>+16(SB)/4, v; \
	DATA name<>+20(SB)/4, v; \
	DATA name<>+24(SB)/4, v; \
	DATA name<>+28(SB)/4, v; \
	GLOBL name<>(SB), RODATA|NOPTR, $32
CONST4(absmask, $0x7fffffffffffffff)
CONST4(signmask, $0x8000000000000000)
CONST4(thresh, $0x41c0000000000000)
CONST4(c4pi, $0x3ff45f306dc9c883)
CONST4(half, $0x3fe0000000000000)
CONST4(one, $0x3ff0000000000000)
CONST4(two52, $0x4330000000000000)
CONST4(bit1, $0x0000000000000002)
CONST4(bit2, $0x0000000000000004)
CONST4(pi4a, $0x3fe921fb40000000)
CONST4(pi4b, $0x3e64442d00000000)
CONST4(pi4c, $0x3ce8469898cc5170)
CONST4(sin0, $0x3de5d8fd1fd19ccd)
CONST4(sin1, $0xbe5ae5e5a9291f5d)
CONST4(sin2, $0x3ec71de3567d48a1)
CONST4(sin3, $0xbf2a01a019bfdf03)
CONST4(sin4, $0x3f8111111110f7d0)
CONST4(sin5, $0xbfc5555555555548)
CONST4(cos0, $0xbda8fa49a0861a9b)
CONST4(cos1, $0x3e21ee9d7b4e3f05)
CONST4(cos2, $0xbe927e4f7eac4bc6)
CONST4(cos3, $0x3efa01a019c844f5)
CONST4(cos4, $0xbf56c16c16c14f91)
CONST4(cos5, $0x3fa555555555554b)
CONST4(shift52, $0x4338000000000000)
CONST4(log2e, $0x3ff71547652b82fe)
CONST4(ln2hi, $0x3fe62e42fee00000)
CONST4(ln2lo, $0x3dea39ef35793c76)
CONST4(bias1023, $1023)
CONST4(explo, $0xc087500000000000)
CONST4(exphi, $0x4086300000000000)
CONST4(e0, $0x3ff0000000000000)
CONST4(e1, $0x3ff0000000000000)
CONST4(e2, $0x3fe0000000000000)
CONST4(e3, $0x3fc5555555555555)
CONST4(e4, $0x3fa5555555555555)
CONST4(e5, $0x3f81111111111111)
CONST4(e6, $0x3f56c16c16c16c17)
CONST4(e7, $0x3f2a01a01a01a01a)
CONST4(e8, $0x3efa01a01a01a01a)
CONST4(e9, $0x3ec71de3a556c734)
CONST4(e10, $0x3e927e4fb7789f5c)
CONST4(e11, $0x3e5ae64567f544e4)
CONST4(e12, $0x3e21eed8eff8d898)
CONST4(e13, $0x3de6124613a86d09)
CONST8(absmask32, $0x7fffffff)
CONST8(signmask32, $0x80000000)
CONST8(thresh32, $0x47000000)
CONST8(c4pi32, $0x3fa2f983)
CONST8(half32, $0x3f000000)
CONST8(one32, $0x3f800000)
CONST8(two23, $0x4b000000)
CONST8(bit1s, $0x00000002)
CONST8(bit2s, $0x00000004)
CONST8(dp1, $0x3f490000)
CONST8(dp2, $0x397da000)
CONST8(dp3, $0x33222169)
CONST8(sin32_0, $0xb94ca1f9)
CONST8(sin32_1, $0x3c08839e)
CONST8(sin32_2, $0xbe2aaaa3)
CONST8(cos32_0, $0x37ccf5ce)
CONST8(cos32_1, $0xbab6061a)
CONST8(cos32_2, $0x3d2aaaa5)
CONST8(shift23, $0x4b400000)
CONST8(log2e32, $0x3fb8aa3b)
CONST8(ln2hi32, $0x3f317200)
CONST8(ln2lo32, $0x35bfbe8e)
CONST8(bias127, $127)
CONST8(explo32, $0xc2d00000)
CONST8(exphi32, $0x42b20000)
CONST8(f0, $0x3f800000)
CONST8(f1, $0x3f800000)
CONST8(f2, $0x3f000000)
CONST8(f3, $0x3e2aaaab)
CONST8(f4, $0x3d2aaaab)
CONST8(f5, $0x3c088889)
CONST8(f6, $0x3ab60b61)
CONST8(f7, $0x39500d01)

// SC64Y: sine and cosine of the four float64 in Y0: Y6 the sines, Y7 the
// cosines, Y2 the mask of the lanes below 2²⁹ (NaN: not). Y13 must hold
// 0, Y14 the sign mask; it uses Y1–Y12.
#define SC64Y \
	VANDPD       absmask<>(SB), Y0, Y1; \
	VCMPPD       $0x11, thresh<>(SB), Y1, Y2; \
	VMULPD       c4pi<>(SB), Y1, Y3; \
	VROUNDPD     $3, Y3, Y3; \
	VMULPD       half<>(SB), Y3, Y3; \
	VROUNDPD     $2, Y3, Y3; \
	VADDPD       Y3, Y3, Y3; \
	VMULPD       pi4a<>(SB), Y3, Y4; \
	VSUBPD       Y4, Y1, Y4; \
	VMULPD       pi4b<>(SB), Y3, Y5; \
	VSUBPD       Y5, Y4, Y4; \
	VMULPD       pi4c<>(SB), Y3, Y5; \
	VSUBPD       Y5, Y4, Y4; \
	VMULPD       Y4, Y4, Y5; \
	VMOVUPD      sin0<>(SB), Y6; \
	VFMADD213PD  sin1<>(SB), Y5, Y6; \
	VFMADD213PD  sin2<>(SB), Y5, Y6; \
	VFMADD213PD  sin3<>(SB), Y5, Y6; \
	VFMADD213PD  sin4<>(SB), Y5, Y6; \
	VFMADD213PD  sin5<>(SB), Y5, Y6; \
	VMOVUPD      cos0<>(SB), Y7; \
	VFMADD213PD  cos1<>(SB), Y5, Y7; \
	VFMADD213PD  cos2<>(SB), Y5, Y7; \
	VFMADD213PD  cos3<>(SB), Y5, Y7; \
	VFMADD213PD  cos4<>(SB), Y5, Y7; \
	VFMADD213PD  cos5<>(SB), Y5, Y7; \
	VMULPD       Y5, Y4, Y8; \
	VFMADD213PD  Y4, Y6, Y8; \
	VMOVUPD      one<>(SB), Y9; \
	VFNMADD231PD half<>(SB), Y5, Y9; \
	VMULPD       Y5, Y5, Y10; \
	VFMADD231PD  Y7, Y10, Y9; \
	VADDPD       two52<>(SB), Y3, Y3; \
	VANDPD       bit1<>(SB), Y3, Y10; \
	VCMPPD       $4, Y13, Y10, Y10; \
	VANDPD       bit2<>(SB), Y3, Y11; \
	VCMPPD       $4, Y13, Y11, Y11; \
	VXORPD       Y10, Y11, Y12; \
	VANDPD       Y14, Y12, Y12; \
	VANDPD       Y14, Y11, Y11; \
	VANDPD       Y14, Y0, Y1; \
	VXORPD       Y1, Y11, Y11; \
	VBLENDVPD    Y10, Y9, Y8, Y6; \
	VBLENDVPD    Y10, Y8, Y9, Y7; \
	VXORPD       Y11, Y6, Y6; \
	VXORPD       Y12, Y7, Y7

// SC64Z: sine and cosine of the eight float64 in Z0: Z6 the sines, Z7
// the cosines, K2 the lanes below 2²⁹ (NaN: not). It uses Z1–Z10 and
// K3–K7.
#define SC64Z \
	VPANDQ.BCST       absmask<>(SB), Z0, Z1; \
	VCMPPD.BCST       $0x11, thresh<>(SB), Z1, K2; \
	VMULPD.BCST       c4pi<>(SB), Z1, Z3; \
	VRNDSCALEPD       $3, Z3, Z3; \
	VMULPD.BCST       half<>(SB), Z3, Z3; \
	VRNDSCALEPD       $2, Z3, Z3; \
	VADDPD            Z3, Z3, Z3; \
	VMULPD.BCST       pi4a<>(SB), Z3, Z4; \
	VSUBPD            Z4, Z1, Z4; \
	VMULPD.BCST       pi4b<>(SB), Z3, Z5; \
	VSUBPD            Z5, Z4, Z4; \
	VMULPD.BCST       pi4c<>(SB), Z3, Z5; \
	VSUBPD            Z5, Z4, Z4; \
	VMULPD            Z4, Z4, Z5; \
	VBROADCASTSD      sin0<>(SB), Z6; \
	VFMADD213PD.BCST  sin1<>(SB), Z5, Z6; \
	VFMADD213PD.BCST  sin2<>(SB), Z5, Z6; \
	VFMADD213PD.BCST  sin3<>(SB), Z5, Z6; \
	VFMADD213PD.BCST  sin4<>(SB), Z5, Z6; \
	VFMADD213PD.BCST  sin5<>(SB), Z5, Z6; \
	VBROADCASTSD      cos0<>(SB), Z7; \
	VFMADD213PD.BCST  cos1<>(SB), Z5, Z7; \
	VFMADD213PD.BCST  cos2<>(SB), Z5, Z7; \
	VFMADD213PD.BCST  cos3<>(SB), Z5, Z7; \
	VFMADD213PD.BCST  cos4<>(SB), Z5, Z7; \
	VFMADD213PD.BCST  cos5<>(SB), Z5, Z7; \
	VMULPD            Z5, Z4, Z8; \
	VFMADD213PD       Z4, Z6, Z8; \
	VBROADCASTSD      one<>(SB), Z9; \
	VFNMADD231PD.BCST half<>(SB), Z5, Z9; \
	VMULPD            Z5, Z5, Z10; \
	VFMADD231PD       Z7, Z10, Z9; \
	VADDPD.BCST       two52<>(SB), Z3, Z3; \
	VPTESTMQ.BCST     bit1<>(SB), Z3, K3; \
	VPTESTMQ.BCST     bit2<>(SB), Z3, K4; \
	VPTESTMQ.BCST     signmask<>(SB), Z0, K5; \
	KXORW             K3, K4, K6; \
	KXORW             K4, K5, K7; \
	VBLENDMPD         Z9, Z8, K3, Z6; \
	VBLENDMPD         Z8, Z9, K3, Z7; \
	VPXORQ.BCST       signmask<>(SB), Z6, K7, Z6; \
	VPXORQ.BCST       signmask<>(SB), Z7, K6, Z7

// SC32Y: sine and cosine of the eight float32 in Y0 (see SC64Y): Y6 the
// sines, Y7 the cosines, Y2 the mask of the lanes below 2¹⁵.
#define SC32Y \
	VANDPS       absmask32<>(SB), Y0, Y1; \
	VCMPPS       $0x11, thresh32<>(SB), Y1, Y2; \
	VMULPS       c4pi32<>(SB), Y1, Y3; \
	VROUNDPS     $3, Y3, Y3; \
	VMULPS       half32<>(SB), Y3, Y3; \
	VROUNDPS     $2, Y3, Y3; \
	VADDPS       Y3, Y3, Y3; \
	VMOVUPS      Y1, Y4; \
	VFNMADD231PS dp1<>(SB), Y3, Y4; \
	VFNMADD231PS dp2<>(SB), Y3, Y4; \
	VFNMADD231PS dp3<>(SB), Y3, Y4; \
	VMULPS       Y4, Y4, Y5; \
	VMOVUPS      sin32_0<>(SB), Y6; \
	VFMADD213PS  sin32_1<>(SB), Y5, Y6; \
	VFMADD213PS  sin32_2<>(SB), Y5, Y6; \
	VMOVUPS      cos32_0<>(SB), Y7; \
	VFMADD213PS  cos32_1<>(SB), Y5, Y7; \
	VFMADD213PS  cos32_2<>(SB), Y5, Y7; \
	VMULPS       Y5, Y4, Y8; \
	VFMADD213PS  Y4, Y6, Y8; \
	VMOVUPS      one32<>(SB), Y9; \
	VFNMADD231PS half32<>(SB), Y5, Y9; \
	VMULPS       Y5, Y5, Y10; \
	VFMADD231PS  Y7, Y10, Y9; \
	VADDPS       two23<>(SB), Y3, Y3; \
	VANDPS       bit1s<>(SB), Y3, Y10; \
	VCMPPS       $4, Y13, Y10, Y10; \
	VANDPS       bit2s<>(SB), Y3, Y11; \
	VCMPPS       $4, Y13, Y11, Y11; \
	VXORPS       Y10, Y11, Y12; \
	VANDPS       Y14, Y12, Y12; \
	VANDPS       Y14, Y11, Y11; \
	VANDPS       Y14, Y0, Y1; \
	VXORPS       Y1, Y11, Y11; \
	VBLENDVPS    Y10, Y9, Y8, Y6; \
	VBLENDVPS    Y10, Y8, Y9, Y7; \
	VXORPS       Y11, Y6, Y6; \
	VXORPS       Y12, Y7, Y7

// SC32Z: sine and cosine of the sixteen float32 in Z0 (see SC64Z).
#define SC32Z \
	VPANDD.BCST       absmask32<>(SB), Z0, Z1; \
	VCMPPS.BCST       $0x11, thresh32<>(SB), Z1, K2; \
	VMULPS.BCST       c4pi32<>(SB), Z1, Z3; \
	VRNDSCALEPS       $3, Z3, Z3; \
	VMULPS.BCST       half32<>(SB), Z3, Z3; \
	VRNDSCALEPS       $2, Z3, Z3; \
	VADDPS            Z3, Z3, Z3; \
	VMOVUPS           Z1, Z4; \
	VFNMADD231PS.BCST dp1<>(SB), Z3, Z4; \
	VFNMADD231PS.BCST dp2<>(SB), Z3, Z4; \
	VFNMADD231PS.BCST dp3<>(SB), Z3, Z4; \
	VMULPS            Z4, Z4, Z5; \
	VBROADCASTSS      sin32_0<>(SB), Z6; \
	VFMADD213PS.BCST  sin32_1<>(SB), Z5, Z6; \
	VFMADD213PS.BCST  sin32_2<>(SB), Z5, Z6; \
	VBROADCASTSS      cos32_0<>(SB), Z7; \
	VFMADD213PS.BCST  cos32_1<>(SB), Z5, Z7; \
	VFMADD213PS.BCST  cos32_2<>(SB), Z5, Z7; \
	VMULPS            Z5, Z4, Z8; \
	VFMADD213PS       Z4, Z6, Z8; \
	VBROADCASTSS      one32<>(SB), Z9; \
	VFNMADD231PS.BCST half32<>(SB), Z5, Z9; \
	VMULPS            Z5, Z5, Z10; \
	VFMADD231PS       Z7, Z10, Z9; \
	VADDPS.BCST       two23<>(SB), Z3, Z3; \
	VPTESTMD.BCST     bit1s<>(SB), Z3, K3; \
	VPTESTMD.BCST     bit2s<>(SB), Z3, K4; \
	VPTESTMD.BCST     signmask32<>(SB), Z0, K5; \
	KXORW             K3, K4, K6; \
	KXORW             K4, K5, K7; \
	VBLENDMPS         Z9, Z8, K3, Z6; \
	VBLENDMPS         Z8, Z9, K3, Z7; \
	VPXORD.BCST       signmask32<>(SB), Z6, K7, Z6; \
	VPXORD.BCST       signmask32<>(SB), Z7, K6, Z7

// EXP64Y: Y4 = e^x of the float64 in Y0, clamped before. It uses Y1–Y6.
#define EXP64Y \
	VMOVUPD shift52<>(SB), Y1; \
	VFMADD231PD log2e<>(SB), Y0, Y1; \
	VSUBPD shift52<>(SB), Y1, Y2; \
	VMOVUPD Y0, Y3; \
	VFNMADD231PD ln2hi<>(SB), Y2, Y3; \
	VFNMADD231PD ln2lo<>(SB), Y2, Y3; \
	VMOVUPD e13<>(SB), Y4; \
	VFMADD213PD e12<>(SB), Y3, Y4; \
	VFMADD213PD e11<>(SB), Y3, Y4; \
	VFMADD213PD e10<>(SB), Y3, Y4; \
	VFMADD213PD e9<>(SB), Y3, Y4; \
	VFMADD213PD e8<>(SB), Y3, Y4; \
	VFMADD213PD e7<>(SB), Y3, Y4; \
	VFMADD213PD e6<>(SB), Y3, Y4; \
	VFMADD213PD e5<>(SB), Y3, Y4; \
	VFMADD213PD e4<>(SB), Y3, Y4; \
	VFMADD213PD e3<>(SB), Y3, Y4; \
	VFMADD213PD e2<>(SB), Y3, Y4; \
	VFMADD213PD e1<>(SB), Y3, Y4; \
	VFMADD213PD e0<>(SB), Y3, Y4; \
	VMULPD half<>(SB), Y2, Y5; \
	VROUNDPD $1, Y5, Y5; \
	VSUBPD Y5, Y2, Y6; \
	VADDPD shift52<>(SB), Y5, Y5; \
	VADDPD shift52<>(SB), Y6, Y6; \
	VPADDQ bias1023<>(SB), Y5, Y5; \
	VPSLLQ $52, Y5, Y5; \
	VPADDQ bias1023<>(SB), Y6, Y6; \
	VPSLLQ $52, Y6, Y6; \
	VMULPD Y5, Y4, Y4; \
	VMULPD Y6, Y4, Y4

// EXP32Y: Y4 = e^x of the float32 in Y0, clamped before. It uses Y1–Y6.
#define EXP32Y \
	VMOVUPS shift23<>(SB), Y1; \
	VFMADD231PS log2e32<>(SB), Y0, Y1; \
	VSUBPS shift23<>(SB), Y1, Y2; \
	VMOVUPS Y0, Y3; \
	VFNMADD231PS ln2hi32<>(SB), Y2, Y3; \
	VFNMADD231PS ln2lo32<>(SB), Y2, Y3; \
	VMOVUPS f7<>(SB), Y4; \
	VFMADD213PS f6<>(SB), Y3, Y4; \
	VFMADD213PS f5<>(SB), Y3, Y4; \
	VFMADD213PS f4<>(SB), Y3, Y4; \
	VFMADD213PS f3<>(SB), Y3, Y4; \
	VFMADD213PS f2<>(SB), Y3, Y4; \
	VFMADD213PS f1<>(SB), Y3, Y4; \
	VFMADD213PS f0<>(SB), Y3, Y4; \
	VMULPS half32<>(SB), Y2, Y5; \
	VROUNDPS $1, Y5, Y5; \
	VSUBPS Y5, Y2, Y6; \
	VADDPS shift23<>(SB), Y5, Y5; \
	VADDPS shift23<>(SB), Y6, Y6; \
	VPADDD bias127<>(SB), Y5, Y5; \
	VPSLLD $23, Y5, Y5; \
	VPADDD bias127<>(SB), Y6, Y6; \
	VPSLLD $23, Y6, Y6; \
	VMULPS Y5, Y4, Y4; \
	VMULPS Y6, Y4, Y4

// EXP64Z: Z4 = e^x of the float64 in Z0, clamped before. It uses Z1–Z6.
#define EXP64Z \
	VBROADCASTSD shift52<>(SB), Z1; \
	VFMADD231PD.BCST log2e<>(SB), Z0, Z1; \
	VSUBPD.BCST shift52<>(SB), Z1, Z2; \
	VMOVUPD Z0, Z3; \
	VFNMADD231PD.BCST ln2hi<>(SB), Z2, Z3; \
	VFNMADD231PD.BCST ln2lo<>(SB), Z2, Z3; \
	VBROADCASTSD e13<>(SB), Z4; \
	VFMADD213PD.BCST e12<>(SB), Z3, Z4; \
	VFMADD213PD.BCST e11<>(SB), Z3, Z4; \
	VFMADD213PD.BCST e10<>(SB), Z3, Z4; \
	VFMADD213PD.BCST e9<>(SB), Z3, Z4; \
	VFMADD213PD.BCST e8<>(SB), Z3, Z4; \
	VFMADD213PD.BCST e7<>(SB), Z3, Z4; \
	VFMADD213PD.BCST e6<>(SB), Z3, Z4; \
	VFMADD213PD.BCST e5<>(SB), Z3, Z4; \
	VFMADD213PD.BCST e4<>(SB), Z3, Z4; \
	VFMADD213PD.BCST e3<>(SB), Z3, Z4; \
	VFMADD213PD.BCST e2<>(SB), Z3, Z4; \
	VFMADD213PD.BCST e1<>(SB), Z3, Z4; \
	VFMADD213PD.BCST e0<>(SB), Z3, Z4; \
	VMULPD.BCST half<>(SB), Z2, Z5; \
	VRNDSCALEPD $1, Z5, Z5; \
	VSUBPD Z5, Z2, Z6; \
	VADDPD.BCST shift52<>(SB), Z5, Z5; \
	VADDPD.BCST shift52<>(SB), Z6, Z6; \
	VPADDQ.BCST bias1023<>(SB), Z5, Z5; \
	VPSLLQ $52, Z5, Z5; \
	VPADDQ.BCST bias1023<>(SB), Z6, Z6; \
	VPSLLQ $52, Z6, Z6; \
	VMULPD Z5, Z4, Z4; \
	VMULPD Z6, Z4, Z4

// EXP32Z: Z4 = e^x of the float32 in Z0, clamped before. It uses Z1–Z6.
#define EXP32Z \
	VBROADCASTSS shift23<>(SB), Z1; \
	VFMADD231PS.BCST log2e32<>(SB), Z0, Z1; \
	VSUBPS.BCST shift23<>(SB), Z1, Z2; \
	VMOVUPS Z0, Z3; \
	VFNMADD231PS.BCST ln2hi32<>(SB), Z2, Z3; \
	VFNMADD231PS.BCST ln2lo32<>(SB), Z2, Z3; \
	VBROADCASTSS f7<>(SB), Z4; \
	VFMADD213PS.BCST f6<>(SB), Z3, Z4; \
	VFMADD213PS.BCST f5<>(SB), Z3, Z4; \
	VFMADD213PS.BCST f4<>(SB), Z3, Z4; \
	VFMADD213PS.BCST f3<>(SB), Z3, Z4; \
	VFMADD213PS.BCST f2<>(SB), Z3, Z4; \
	VFMADD213PS.BCST f1<>(SB), Z3, Z4; \
	VFMADD213PS.BCST f0<>(SB), Z3, Z4; \
	VMULPS.BCST half32<>(SB), Z2, Z5; \
	VRNDSCALEPS $1, Z5, Z5; \
	VSUBPS Z5, Z2, Z6; \
	VADDPS.BCST shift23<>(SB), Z5, Z5; \
	VADDPS.BCST shift23<>(SB), Z6, Z6; \
	VPADDD.BCST bias127<>(SB), Z5, Z5; \
	VPSLLD $23, Z5, Z5; \
	VPADDD.BCST bias127<>(SB), Z6, Z6; \
	VPSLLD $23, Z6, Z6; \
	VMULPS Z5, Z4, Z4; \
	VMULPS Z6, Z4, Z4

// Interleave the cosines and sines of eight float64: cos0 sin0 cos1 sin1 …
DATA ilo<>+0(SB)/8, $0
DATA ilo<>+8(SB)/8, $8
DATA ilo<>+16(SB)/8, $1
DATA ilo<>+24(SB)/8, $9
DATA ilo<>+32(SB)/8, $2
DATA ilo<>+40(SB)/8, $10
DATA ilo<>+48(SB)/8, $3
DATA ilo<>+56(SB)/8, $11
GLOBL ilo<>(SB), RODATA|NOPTR, $64
DATA ihi<>+0(SB)/8, $4
DATA ihi<>+8(SB)/8, $12
DATA ihi<>+16(SB)/8, $5
DATA ihi<>+24(SB)/8, $13
DATA ihi<>+32(SB)/8, $6
DATA ihi<>+40(SB)/8, $14
DATA ihi<>+48(SB)/8, $7
DATA ihi<>+56(SB)/8, $15
GLOBL ihi<>(SB), RODATA|NOPTR, $64
// … and of sixteen float32.
DATA ilo32<>+0(SB)/4, $0
DATA ilo32<>+4(SB)/4, $16
DATA ilo32<>+8(SB)/4, $1
DATA ilo32<>+12(SB)/4, $17
DATA ilo32<>+16(SB)/4, $2
DATA ilo32<>+20(SB)/4, $18
DATA ilo32<>+24(SB)/4, $3
DATA ilo32<>+28(SB)/4, $19
DATA ilo32<>+32(SB)/4, $4
DATA ilo32<>+36(SB)/4, $20
DATA ilo32<>+40(SB)/4, $5
DATA ilo32<>+44(SB)/4, $21
DATA ilo32<>+48(SB)/4, $6
DATA ilo32<>+52(SB)/4, $22
DATA ilo32<>+56(SB)/4, $7
DATA ilo32<>+60(SB)/4, $23
GLOBL ilo32<>(SB), RODATA|NOPTR, $64
DATA ihi32<>+0(SB)/4, $8
DATA ihi32<>+4(SB)/4, $24
DATA ihi32<>+8(SB)/4, $9
DATA ihi32<>+12(SB)/4, $25
DATA ihi32<>+16(SB)/4, $10
DATA ihi32<>+20(SB)/4, $26
DATA ihi32<>+24(SB)/4, $11
DATA ihi32<>+28(SB)/4, $27
DATA ihi32<>+32(SB)/4, $12
DATA ihi32<>+36(SB)/4, $28
DATA ihi32<>+40(SB)/4, $13
DATA ihi32<>+44(SB)/4, $29
DATA ihi32<>+48(SB)/4, $14
DATA ihi32<>+52(SB)/4, $30
DATA ihi32<>+56(SB)/4, $15
DATA ihi32<>+60(SB)/4, $31
GLOBL ihi32<>(SB), RODATA|NOPTR, $64

// func featmapDenseCosSin64Y(dst, p *float64, n int, s float64) (bad bool)
TEXT ·featmapDenseCosSin64Y(SB), NOSPLIT, $0-33
	MOVQ dst+0(FP), DI
	MOVQ p+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSD s+24(FP), Y15
	MOVL $0xf, AX
	VXORPD Y13, Y13, Y13
	VMOVUPD signmask<>(SB), Y14
	TESTQ CX, CX
	JLE   done

loop:
	VMOVUPD (SI), Y0
	SC64Y
	VMOVMSKPD Y2, R8
	ANDL R8, AX
	VMULPD Y15, Y7, Y7
	VMULPD Y15, Y6, Y6
	VUNPCKLPD Y6, Y7, Y8
	VUNPCKHPD Y6, Y7, Y9
	VPERM2F128 $0x20, Y9, Y8, Y10
	VPERM2F128 $0x31, Y9, Y8, Y11
	VMOVUPD Y10, (DI)
	VMOVUPD Y11, 32(DI)
	ADDQ $32, SI
	ADDQ $64, DI
	SUBQ $4, CX
	JGT  loop

done:
	CMPL AX, $0xf
	SETNE bad+32(FP)
	VZEROUPPER
	RET

// func featmapDenseCos64Y(dst, p, b *float64, n int, s float64) (bad bool)
TEXT ·featmapDenseCos64Y(SB), NOSPLIT, $0-41
	MOVQ dst+0(FP), DI
	MOVQ p+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	VBROADCASTSD s+32(FP), Y15
	MOVL $0xf, AX
	VXORPD Y13, Y13, Y13
	VMOVUPD signmask<>(SB), Y14
	TESTQ CX, CX
	JLE   done

loop:
	VMOVUPD (SI), Y0
	VADDPD (DX), Y0, Y0
	SC64Y
	VMOVMSKPD Y2, R8
	ANDL R8, AX
	VMULPD Y15, Y7, Y7
	VMOVUPD Y7, (DI)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	SUBQ $4, CX
	JGT  loop

done:
	CMPL AX, $0xf
	SETNE bad+40(FP)
	VZEROUPPER
	RET

// func featmapDenseExp64Y(dst, x *float64, n int)
TEXT ·featmapDenseExp64Y(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	VMOVUPD explo<>(SB), Y14
	VMOVUPD exphi<>(SB), Y15
	TESTQ CX, CX
	JLE   done

loop:
	VMOVUPD (SI), Y0
	VMAXPD Y0, Y14, Y0
	VMINPD Y0, Y15, Y0
	EXP64Y
	VMOVUPD Y4, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $4, CX
	JGT  loop

done:
	VZEROUPPER
	RET

// func featmapDenseExpDist64Y(dst, dot, nl *float64, n int, q float64)
TEXT ·featmapDenseExpDist64Y(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ dot+8(FP), SI
	MOVQ nl+16(FP), DX
	MOVQ n+24(FP), CX
	VBROADCASTSD q+32(FP), Y13
	VMOVUPD explo<>(SB), Y14
	VXORPD Y15, Y15, Y15
	TESTQ CX, CX
	JLE   done

loop:
	VADDPD (DX), Y13, Y1
	VMOVUPD (SI), Y0
	VSUBPD Y1, Y0, Y0
	VMINPD Y0, Y15, Y0
	VMAXPD Y0, Y14, Y0
	EXP64Y
	VMOVUPD Y4, (DI)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	SUBQ $4, CX
	JGT  loop

done:
	VZEROUPPER
	RET

// func featmapDenseCosSin32Y(dst, p *float32, n int, s float32) (bad bool)
TEXT ·featmapDenseCosSin32Y(SB), NOSPLIT, $0-33
	MOVQ dst+0(FP), DI
	MOVQ p+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS s+24(FP), Y15
	MOVL $0xff, AX
	VXORPS Y13, Y13, Y13
	VMOVUPS signmask32<>(SB), Y14
	TESTQ CX, CX
	JLE   done

loop:
	VMOVUPS (SI), Y0
	SC32Y
	VMOVMSKPS Y2, R8
	ANDL R8, AX
	VMULPS Y15, Y7, Y7
	VMULPS Y15, Y6, Y6
	VUNPCKLPS Y6, Y7, Y8
	VUNPCKHPS Y6, Y7, Y9
	VPERM2F128 $0x20, Y9, Y8, Y10
	VPERM2F128 $0x31, Y9, Y8, Y11
	VMOVUPS Y10, (DI)
	VMOVUPS Y11, 32(DI)
	ADDQ $32, SI
	ADDQ $64, DI
	SUBQ $8, CX
	JGT  loop

done:
	CMPL AX, $0xff
	SETNE bad+32(FP)
	VZEROUPPER
	RET

// func featmapDenseCos32Y(dst, p, b *float32, n int, s float32) (bad bool)
TEXT ·featmapDenseCos32Y(SB), NOSPLIT, $0-41
	MOVQ dst+0(FP), DI
	MOVQ p+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	VBROADCASTSS s+32(FP), Y15
	MOVL $0xff, AX
	VXORPS Y13, Y13, Y13
	VMOVUPS signmask32<>(SB), Y14
	TESTQ CX, CX
	JLE   done

loop:
	VMOVUPS (SI), Y0
	VADDPS (DX), Y0, Y0
	SC32Y
	VMOVMSKPS Y2, R8
	ANDL R8, AX
	VMULPS Y15, Y7, Y7
	VMOVUPS Y7, (DI)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	SUBQ $8, CX
	JGT  loop

done:
	CMPL AX, $0xff
	SETNE bad+40(FP)
	VZEROUPPER
	RET

// func featmapDenseExp32Y(dst, x *float32, n int)
TEXT ·featmapDenseExp32Y(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	VMOVUPS explo32<>(SB), Y14
	VMOVUPS exphi32<>(SB), Y15
	TESTQ CX, CX
	JLE   done

loop:
	VMOVUPS (SI), Y0
	VMAXPS Y0, Y14, Y0
	VMINPS Y0, Y15, Y0
	EXP32Y
	VMOVUPS Y4, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JGT  loop

done:
	VZEROUPPER
	RET

// func featmapDenseExpDist32Y(dst, dot, nl *float32, n int, q float32)
TEXT ·featmapDenseExpDist32Y(SB), NOSPLIT, $0-36
	MOVQ dst+0(FP), DI
	MOVQ dot+8(FP), SI
	MOVQ nl+16(FP), DX
	MOVQ n+24(FP), CX
	VBROADCASTSS q+32(FP), Y13
	VMOVUPS explo32<>(SB), Y14
	VXORPS Y15, Y15, Y15
	TESTQ CX, CX
	JLE   done

loop:
	VADDPS (DX), Y13, Y1
	VMOVUPS (SI), Y0
	VSUBPS Y1, Y0, Y0
	VMINPS Y0, Y15, Y0
	VMAXPS Y0, Y14, Y0
	EXP32Y
	VMOVUPS Y4, (DI)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	SUBQ $8, CX
	JGT  loop

done:
	VZEROUPPER
	RET

// func featmapDenseCosSin64Z(dst, p *float64, n int, s float64) (bad bool)
TEXT ·featmapDenseCosSin64Z(SB), NOSPLIT, $0-33
	MOVQ dst+0(FP), DI
	MOVQ p+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSD s+24(FP), Z15
	MOVL $0xff, AX
	VMOVUPS ilo<>(SB), Z13
	VMOVUPS ihi<>(SB), Z14
	TESTQ CX, CX
	JLE   done

loop:
	VMOVUPD (SI), Z0
	SC64Z
	KMOVW K2, R8
	ANDL  R8, AX
	VMULPD Z15, Z7, Z7
	VMULPD Z15, Z6, Z6
	VMOVUPS Z13, Z10
	VPERMI2PD Z6, Z7, Z10
	VMOVUPS Z14, Z11
	VPERMI2PD Z6, Z7, Z11
	VMOVUPD Z10, (DI)
	VMOVUPD Z11, 64(DI)
	ADDQ $64, SI
	ADDQ $128, DI
	SUBQ $8, CX
	JGT  loop

done:
	CMPL AX, $0xff
	SETNE bad+32(FP)
	VZEROUPPER
	RET

// func featmapDenseCos64Z(dst, p, b *float64, n int, s float64) (bad bool)
TEXT ·featmapDenseCos64Z(SB), NOSPLIT, $0-41
	MOVQ dst+0(FP), DI
	MOVQ p+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	VBROADCASTSD s+32(FP), Z15
	MOVL $0xff, AX
	TESTQ CX, CX
	JLE   done

loop:
	VMOVUPD (SI), Z0
	VADDPD (DX), Z0, Z0
	SC64Z
	KMOVW K2, R8
	ANDL  R8, AX
	VMULPD Z15, Z7, Z7
	VMOVUPD Z7, (DI)
	ADDQ $64, SI
	ADDQ $64, DX
	ADDQ $64, DI
	SUBQ $8, CX
	JGT  loop

done:
	CMPL AX, $0xff
	SETNE bad+40(FP)
	VZEROUPPER
	RET

// func featmapDenseExp64Z(dst, x *float64, n int)
TEXT ·featmapDenseExp64Z(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSD explo<>(SB), Z14
	VBROADCASTSD exphi<>(SB), Z15
	TESTQ CX, CX
	JLE   done

loop:
	VMOVUPD (SI), Z0
	VMAXPD Z0, Z14, Z0
	VMINPD Z0, Z15, Z0
	EXP64Z
	VMOVUPD Z4, (DI)
	ADDQ $64, SI
	ADDQ $64, DI
	SUBQ $8, CX
	JGT  loop

done:
	VZEROUPPER
	RET

// func featmapDenseExpDist64Z(dst, dot, nl *float64, n int, q float64)
TEXT ·featmapDenseExpDist64Z(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ dot+8(FP), SI
	MOVQ nl+16(FP), DX
	MOVQ n+24(FP), CX
	VBROADCASTSD q+32(FP), Z13
	VBROADCASTSD explo<>(SB), Z14
	VXORPD Z15, Z15, Z15
	TESTQ CX, CX
	JLE   done

loop:
	VADDPD (DX), Z13, Z1
	VMOVUPD (SI), Z0
	VSUBPD Z1, Z0, Z0
	VMINPD Z0, Z15, Z0
	VMAXPD Z0, Z14, Z0
	EXP64Z
	VMOVUPD Z4, (DI)
	ADDQ $64, SI
	ADDQ $64, DX
	ADDQ $64, DI
	SUBQ $8, CX
	JGT  loop

done:
	VZEROUPPER
	RET

// func featmapDenseCosSin32Z(dst, p *float32, n int, s float32) (bad bool)
TEXT ·featmapDenseCosSin32Z(SB), NOSPLIT, $0-33
	MOVQ dst+0(FP), DI
	MOVQ p+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS s+24(FP), Z15
	MOVL $0xffff, AX
	VMOVUPS ilo32<>(SB), Z13
	VMOVUPS ihi32<>(SB), Z14
	TESTQ CX, CX
	JLE   done

loop:
	VMOVUPS (SI), Z0
	SC32Z
	KMOVW K2, R8
	ANDL  R8, AX
	VMULPS Z15, Z7, Z7
	VMULPS Z15, Z6, Z6
	VMOVUPS Z13, Z10
	VPERMI2PS Z6, Z7, Z10
	VMOVUPS Z14, Z11
	VPERMI2PS Z6, Z7, Z11
	VMOVUPS Z10, (DI)
	VMOVUPS Z11, 64(DI)
	ADDQ $64, SI
	ADDQ $128, DI
	SUBQ $16, CX
	JGT  loop

done:
	CMPL AX, $0xffff
	SETNE bad+32(FP)
	VZEROUPPER
	RET

// func featmapDenseCos32Z(dst, p, b *float32, n int, s float32) (bad bool)
TEXT ·featmapDenseCos32Z(SB), NOSPLIT, $0-41
	MOVQ dst+0(FP), DI
	MOVQ p+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	VBROADCASTSS s+32(FP), Z15
	MOVL $0xffff, AX
	TESTQ CX, CX
	JLE   done

loop:
	VMOVUPS (SI), Z0
	VADDPS (DX), Z0, Z0
	SC32Z
	KMOVW K2, R8
	ANDL  R8, AX
	VMULPS Z15, Z7, Z7
	VMOVUPS Z7, (DI)
	ADDQ $64, SI
	ADDQ $64, DX
	ADDQ $64, DI
	SUBQ $16, CX
	JGT  loop

done:
	CMPL AX, $0xffff
	SETNE bad+40(FP)
	VZEROUPPER
	RET

// func featmapDenseExp32Z(dst, x *float32, n int)
TEXT ·featmapDenseExp32Z(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS explo32<>(SB), Z14
	VBROADCASTSS exphi32<>(SB), Z15
	TESTQ CX, CX
	JLE   done

loop:
	VMOVUPS (SI), Z0
	VMAXPS Z0, Z14, Z0
	VMINPS Z0, Z15, Z0
	EXP32Z
	VMOVUPS Z4, (DI)
	ADDQ $64, SI
	ADDQ $64, DI
	SUBQ $16, CX
	JGT  loop

done:
	VZEROUPPER
	RET

// func featmapDenseExpDist32Z(dst, dot, nl *float32, n int, q float32)
TEXT ·featmapDenseExpDist32Z(SB), NOSPLIT, $0-36
	MOVQ dst+0(FP), DI
	MOVQ dot+8(FP), SI
	MOVQ nl+16(FP), DX
	MOVQ n+24(FP), CX
	VBROADCASTSS q+32(FP), Z13
	VBROADCASTSS explo32<>(SB), Z14
	VXORPS Z15, Z15, Z15
	TESTQ CX, CX
	JLE   done

loop:
	VADDPS (DX), Z13, Z1
	VMOVUPS (SI), Z0
	VSUBPS Z1, Z0, Z0
	VMINPS Z0, Z15, Z0
	VMAXPS Z0, Z14, Z0
	EXP32Z
	VMOVUPS Z4, (DI)
	ADDQ $64, SI
	ADDQ $64, DX
	ADDQ $64, DI
	SUBQ $16, CX
	JGT  loop

done:
	VZEROUPPER
	RET
