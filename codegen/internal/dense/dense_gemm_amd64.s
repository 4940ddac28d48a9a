#include "textflag.h"

// The products C (+)= A·Bᵀ of dense.go in AVX-512 and in AVX2 with FMA.
// B is packed in panels of 16 float64 or 32 float32 columns, 128 bytes
// per k step (featmapDensePack64, featmapDensePack32), panel p at
// b + p·pstride elements; A and C are row-major with strides lda and ldc
// elements. Every element of C is one chain of fused multiply-adds over k
// in order, c = fma(a[i][kk], b[kk][j], c), from 0 or, with acc, from C's
// old value: the 12-row, 6-row and one-row kernels give the same bits, and
// so does a product split over k whose later parts continue with acc.
// Columns of C at or beyond cols are neither read nor written (masked
// loads and stores); A is read only in its rows' first k elements.

// ZROW: one row of a 12-row AVX-512 tile at one k step: a broadcast of
// A's element and two multiply-adds with the panel's vectors Z24, Z25.
#define ZROW(BCAST, FMA, addr, acc0, acc1) \
	BCAST addr, Z26; \
	FMA   Z24, Z26, acc0; \
	FMA   Z25, Z26, acc1

// ZSTEP: one k step of the 12-row tile. BX points at the panel's k step;
// SI, R10, R11, R12 at rows 0, 3, 6, 9 of A; R8 is A's row stride in bytes.
#define ZSTEP(MOV, BCAST, FMA) \
	MOV  (BX), Z24; \
	MOV  64(BX), Z25; \
	ZROW(BCAST, FMA, (SI), Z0, Z1); \
	ZROW(BCAST, FMA, (SI)(R8*1), Z2, Z3); \
	ZROW(BCAST, FMA, (SI)(R8*2), Z4, Z5); \
	ZROW(BCAST, FMA, (R10), Z6, Z7); \
	ZROW(BCAST, FMA, (R10)(R8*1), Z8, Z9); \
	ZROW(BCAST, FMA, (R10)(R8*2), Z10, Z11); \
	ZROW(BCAST, FMA, (R11), Z12, Z13); \
	ZROW(BCAST, FMA, (R11)(R8*1), Z14, Z15); \
	ZROW(BCAST, FMA, (R11)(R8*2), Z16, Z17); \
	ZROW(BCAST, FMA, (R12), Z18, Z19); \
	ZROW(BCAST, FMA, (R12)(R8*1), Z20, Z21); \
	ZROW(BCAST, FMA, (R12)(R8*2), Z22, Z23)

// ZZERO clears the 24 accumulators of the 12-row tile.
#define ZZERO \
	VPXORQ Z0, Z0, Z0; VPXORQ Z1, Z1, Z1; VPXORQ Z2, Z2, Z2; VPXORQ Z3, Z3, Z3; \
	VPXORQ Z4, Z4, Z4; VPXORQ Z5, Z5, Z5; VPXORQ Z6, Z6, Z6; VPXORQ Z7, Z7, Z7; \
	VPXORQ Z8, Z8, Z8; VPXORQ Z9, Z9, Z9; VPXORQ Z10, Z10, Z10; VPXORQ Z11, Z11, Z11; \
	VPXORQ Z12, Z12, Z12; VPXORQ Z13, Z13, Z13; VPXORQ Z14, Z14, Z14; VPXORQ Z15, Z15, Z15; \
	VPXORQ Z16, Z16, Z16; VPXORQ Z17, Z17, Z17; VPXORQ Z18, Z18, Z18; VPXORQ Z19, Z19, Z19; \
	VPXORQ Z20, Z20, Z20; VPXORQ Z21, Z21, Z21; VPXORQ Z22, Z22, Z22; VPXORQ Z23, Z23, Z23

// ZLOAD loads C's old values (the lanes under K1 and K2, zeros in the
// others) into a row's two accumulators; ZPUT stores them under the same
// masks.
#define ZLOAD(INS, a0, a1, acc0, acc1) \
	INS a0, K1, acc0; \
	INS a1, K2, acc1

#define ZPUT(INS, a0, a1, acc0, acc1) \
	INS acc0, K1, a0; \
	INS acc1, K2, a1

// ZALL applies ZLOAD or ZPUT to the tile's 12 rows: DI, R10, R11, R12
// point at C's rows 0, 3, 6, 9, R9 is C's row stride in bytes.
#define ZALL(OP, INS) \
	OP(INS, (DI), 64(DI), Z0, Z1); \
	OP(INS, (DI)(R9*1), 64(DI)(R9*1), Z2, Z3); \
	OP(INS, (DI)(R9*2), 64(DI)(R9*2), Z4, Z5); \
	OP(INS, (R10), 64(R10), Z6, Z7); \
	OP(INS, (R10)(R9*1), 64(R10)(R9*1), Z8, Z9); \
	OP(INS, (R10)(R9*2), 64(R10)(R9*2), Z10, Z11); \
	OP(INS, (R11), 64(R11), Z12, Z13); \
	OP(INS, (R11)(R9*1), 64(R11)(R9*1), Z14, Z15); \
	OP(INS, (R11)(R9*2), 64(R11)(R9*2), Z16, Z17); \
	OP(INS, (R12), 64(R12), Z18, Z19); \
	OP(INS, (R12)(R9*1), 64(R12)(R9*1), Z20, Z21); \
	OP(INS, (R12)(R9*2), 64(R12)(R9*2), Z22, Z23)

// ZMASKS sets K1 to the first min(AX, L) lanes and K2 to the next
// min(max(AX − L, 0), L), L the lanes of a vector (8 float64, 16
// float32). It uses CX and R13.
#define ZMASKS(L) \
	MOVQ    AX, CX; \
	MOVQ    $L, R13; \
	CMPQ    CX, R13; \
	CMOVQGT R13, CX; \
	MOVQ    $1, R13; \
	SHLQ    CX, R13; \
	DECQ    R13; \
	KMOVW   R13, K1; \
	MOVQ    AX, CX; \
	SUBQ    $L, CX; \
	XORQ    R13, R13; \
	CMPQ    CX, R13; \
	CMOVQLT R13, CX; \
	MOVQ    $L, R13; \
	CMPQ    CX, R13; \
	CMOVQGT R13, CX; \
	MOVQ    $1, R13; \
	SHLQ    CX, R13; \
	DECQ    R13; \
	KMOVW   R13, K2

// YMASKS sets Y12 and Y13 to the masks of the first min(max(AX, 0), L)
// and the next min(max(AX − L, 0), L) lanes of a half panel's two vectors, L the
// lanes of a vector (4 float64, 8 float32) of elements of E bytes, from
// the table TAB (ymask). It uses CX, R13 and SI.
#define YMASKS(TAB, L, E) \
	LEAQ    TAB, SI; \
	MOVQ    AX, CX; \
	XORQ    R13, R13; \
	CMPQ    CX, R13; \
	CMOVQLT R13, CX; \
	MOVQ    $L, R13; \
	CMPQ    CX, R13; \
	CMOVQGT R13, CX; \
	NEGQ    CX; \
	ADDQ    $L, CX; \
	VMOVUPD (SI)(CX*E), Y12; \
	MOVQ    AX, CX; \
	SUBQ    $L, CX; \
	XORQ    R13, R13; \
	CMPQ    CX, R13; \
	CMOVQLT R13, CX; \
	MOVQ    $L, R13; \
	CMPQ    CX, R13; \
	CMOVQGT R13, CX; \
	NEGQ    CX; \
	ADDQ    $L, CX; \
	VMOVUPD (SI)(CX*E), Y13

// ymask: 32 bytes of ones, then 32 of zeros. The mask of the first n
// lanes of a vector of L lanes of E bytes is the 32 bytes at
// ymask + (L − n)·E.
DATA ymask<>+0(SB)/8, $-1
DATA ymask<>+8(SB)/8, $-1
DATA ymask<>+16(SB)/8, $-1
DATA ymask<>+24(SB)/8, $-1
DATA ymask<>+32(SB)/8, $0
DATA ymask<>+40(SB)/8, $0
DATA ymask<>+48(SB)/8, $0
DATA ymask<>+56(SB)/8, $0
GLOBL ymask<>(SB), RODATA|NOPTR, $64

// YROW: one row of a 6-row AVX2 tile at one k step (the half panel's
// vectors in Y12, Y13).
#define YROW(BCAST, FMA, addr, t, acc0, acc1) \
	BCAST addr, t; \
	FMA   Y12, t, acc0; \
	FMA   Y13, t, acc1

// YSTEP: one k step of the 6-row tile: BX points at the half panel's k
// step, SI and R10 at rows 0 and 3 of A, R8 is A's row stride in bytes.
#define YSTEP(MOV, BCAST, FMA) \
	MOV  (BX), Y12; \
	MOV  32(BX), Y13; \
	YROW(BCAST, FMA, (SI), Y14, Y0, Y1); \
	YROW(BCAST, FMA, (SI)(R8*1), Y15, Y2, Y3); \
	YROW(BCAST, FMA, (SI)(R8*2), Y14, Y4, Y5); \
	YROW(BCAST, FMA, (R10), Y15, Y6, Y7); \
	YROW(BCAST, FMA, (R10)(R8*1), Y14, Y8, Y9); \
	YROW(BCAST, FMA, (R10)(R8*2), Y15, Y10, Y11)

#define YZERO \
	VXORPD Y0, Y0, Y0; VXORPD Y1, Y1, Y1; VXORPD Y2, Y2, Y2; VXORPD Y3, Y3, Y3; \
	VXORPD Y4, Y4, Y4; VXORPD Y5, Y5, Y5; VXORPD Y6, Y6, Y6; VXORPD Y7, Y7, Y7; \
	VXORPD Y8, Y8, Y8; VXORPD Y9, Y9, Y9; VXORPD Y10, Y10, Y10; VXORPD Y11, Y11, Y11

// YLOAD loads C's old values under the masks Y12, Y13 (zeros elsewhere)
// into a row's two accumulators; YPUT stores them under the same masks.
#define YLOAD(MASK, a0, a1, acc0, acc1) \
	MASK a0, Y12, acc0; \
	MASK a1, Y13, acc1

#define YPUT(MASK, a0, a1, acc0, acc1) \
	MASK acc0, Y12, a0; \
	MASK acc1, Y13, a1

// YALL applies YLOAD or YPUT to the tile's 6 rows: DI and R10 point at C's
// rows 0 and 3, R9 is C's row stride in bytes.
#define YALL(OP, MASK) \
	OP(MASK, (DI), 32(DI), Y0, Y1); \
	OP(MASK, (DI)(R9*1), 32(DI)(R9*1), Y2, Y3); \
	OP(MASK, (DI)(R9*2), 32(DI)(R9*2), Y4, Y5); \
	OP(MASK, (R10), 32(R10), Y6, Y7); \
	OP(MASK, (R10)(R9*1), 32(R10)(R9*1), Y8, Y9); \
	OP(MASK, (R10)(R9*2), 32(R10)(R9*2), Y10, Y11)

// CROWS points R10, R11, R12 at C's rows 3, 6, 9 (DI at row 0, R9 the
// stride in bytes).
#define CROWS \
	LEAQ (DI)(R9*2), R10; \
	ADDQ R9, R10; \
	LEAQ (R10)(R9*2), R11; \
	ADDQ R9, R11; \
	LEAQ (R11)(R9*2), R12; \
	ADDQ R9, R12

// AROWS points SI, R10, R11, R12 at A's rows 0, 3, 6, 9 (R8 the stride in
// bytes), from the argument a.
#define AROWS \
	MOVQ a+16(FP), SI; \
	LEAQ (SI)(R8*2), R10; \
	ADDQ R8, R10; \
	LEAQ (R10)(R8*2), R11; \
	ADDQ R8, R11; \
	LEAQ (R11)(R8*2), R12; \
	ADDQ R8, R12

// func featmapDenseTile64Z(c *float64, ldc int, a *float64, lda int, b *float64, pstride, k, cols int, acc bool)
TEXT ·featmapDenseTile64Z(SB), NOSPLIT, $0-65
	MOVQ c+0(FP), DI
	MOVQ ldc+8(FP), R9
	SHLQ $3, R9
	MOVQ lda+24(FP), R8
	SHLQ $3, R8
	MOVQ b+32(FP), DX
	MOVQ pstride+40(FP), R15
	SHLQ $3, R15
	MOVQ cols+56(FP), AX

panel:
	ZMASKS(8)
	CMPB acc+64(FP), $0
	JEQ  zero
	CROWS
	ZALL(ZLOAD, VMOVUPD.Z)
	JMP  start

zero:
	ZZERO

start:
	AROWS
	MOVQ  DX, BX
	MOVQ  k+48(FP), CX
	TESTQ CX, CX
	JLE   store

loop:
	ZSTEP(VMOVUPD, VBROADCASTSD, VFMADD231PD)
	ADDQ $128, BX
	ADDQ $8, SI
	ADDQ $8, R10
	ADDQ $8, R11
	ADDQ $8, R12
	DECQ CX
	JNZ  loop

store:
	CROWS
	ZALL(ZPUT, VMOVUPD)
	ADDQ $128, DI
	ADDQ R15, DX
	SUBQ $16, AX
	JGT  panel
	VZEROUPPER
	RET

// func featmapDenseTile32Z(c *float32, ldc int, a *float32, lda int, b *float32, pstride, k, cols int, acc bool)
TEXT ·featmapDenseTile32Z(SB), NOSPLIT, $0-65
	MOVQ c+0(FP), DI
	MOVQ ldc+8(FP), R9
	SHLQ $2, R9
	MOVQ lda+24(FP), R8
	SHLQ $2, R8
	MOVQ b+32(FP), DX
	MOVQ pstride+40(FP), R15
	SHLQ $2, R15
	MOVQ cols+56(FP), AX

panel:
	ZMASKS(16)
	CMPB acc+64(FP), $0
	JEQ  zero
	CROWS
	ZALL(ZLOAD, VMOVUPS.Z)
	JMP  start

zero:
	ZZERO

start:
	AROWS
	MOVQ  DX, BX
	MOVQ  k+48(FP), CX
	TESTQ CX, CX
	JLE   store

loop:
	ZSTEP(VMOVUPS, VBROADCASTSS, VFMADD231PS)
	ADDQ $128, BX
	ADDQ $4, SI
	ADDQ $4, R10
	ADDQ $4, R11
	ADDQ $4, R12
	DECQ CX
	JNZ  loop

store:
	CROWS
	ZALL(ZPUT, VMOVUPS)
	ADDQ $128, DI
	ADDQ R15, DX
	SUBQ $32, AX
	JGT  panel
	VZEROUPPER
	RET

// func featmapDenseTile64Y(c *float64, ldc int, a *float64, lda int, b *float64, pstride, k, cols int, acc bool)
TEXT ·featmapDenseTile64Y(SB), NOSPLIT, $0-65
	MOVQ c+0(FP), DI
	MOVQ ldc+8(FP), R9
	SHLQ $3, R9
	MOVQ lda+24(FP), R8
	SHLQ $3, R8
	MOVQ b+32(FP), DX
	MOVQ pstride+40(FP), R15
	SHLQ $3, R15
	MOVQ cols+56(FP), AX
	XORQ R12, R12 // 0: a panel's first half, 1: its second

half:
	YMASKS(ymask<>(SB), 4, 8)
	LEAQ (DI)(R9*2), R10
	ADDQ R9, R10
	CMPB acc+64(FP), $0
	JEQ  zero
	YALL(YLOAD, VMASKMOVPD)
	JMP  start

zero:
	YZERO

start:
	MOVQ  a+16(FP), SI
	LEAQ  (SI)(R8*2), R10
	ADDQ  R8, R10
	MOVQ  DX, BX
	MOVQ  k+48(FP), CX
	TESTQ CX, CX
	JLE   store

loop:
	YSTEP(VMOVUPD, VBROADCASTSD, VFMADD231PD)
	ADDQ $128, BX
	ADDQ $8, SI
	ADDQ $8, R10
	DECQ CX
	JNZ  loop

store:
	YMASKS(ymask<>(SB), 4, 8)
	LEAQ (DI)(R9*2), R10
	ADDQ R9, R10
	YALL(YPUT, VMASKMOVPD)
	ADDQ $64, DI
	SUBQ $8, AX
	JLE  done
	XORQ $1, R12
	JZ   next
	ADDQ $64, DX // the panel's second half
	JMP  half

next:
	ADDQ R15, DX // the next panel's first half
	SUBQ $64, DX
	JMP  half

done:
	VZEROUPPER
	RET

// func featmapDenseTile32Y(c *float32, ldc int, a *float32, lda int, b *float32, pstride, k, cols int, acc bool)
TEXT ·featmapDenseTile32Y(SB), NOSPLIT, $0-65
	MOVQ c+0(FP), DI
	MOVQ ldc+8(FP), R9
	SHLQ $2, R9
	MOVQ lda+24(FP), R8
	SHLQ $2, R8
	MOVQ b+32(FP), DX
	MOVQ pstride+40(FP), R15
	SHLQ $2, R15
	MOVQ cols+56(FP), AX
	XORQ R12, R12 // 0: a panel's first half, 1: its second

half:
	YMASKS(ymask<>(SB), 8, 4)
	LEAQ (DI)(R9*2), R10
	ADDQ R9, R10
	CMPB acc+64(FP), $0
	JEQ  zero
	YALL(YLOAD, VMASKMOVPS)
	JMP  start

zero:
	YZERO

start:
	MOVQ  a+16(FP), SI
	LEAQ  (SI)(R8*2), R10
	ADDQ  R8, R10
	MOVQ  DX, BX
	MOVQ  k+48(FP), CX
	TESTQ CX, CX
	JLE   store

loop:
	YSTEP(VMOVUPS, VBROADCASTSS, VFMADD231PS)
	ADDQ $128, BX
	ADDQ $4, SI
	ADDQ $4, R10
	DECQ CX
	JNZ  loop

store:
	YMASKS(ymask<>(SB), 8, 4)
	LEAQ (DI)(R9*2), R10
	ADDQ R9, R10
	YALL(YPUT, VMASKMOVPS)
	ADDQ $64, DI
	SUBQ $16, AX
	JLE  done
	XORQ $1, R12
	JZ   next
	ADDQ $64, DX // the panel's second half
	JMP  half

next:
	ADDQ R15, DX // the next panel's first half
	SUBQ $64, DX
	JMP  half

done:
	VZEROUPPER
	RET

// func featmapDenseRow64Z(c *float64, a *float64, b *float64, pstride, k, cols int, acc bool)
TEXT ·featmapDenseRow64Z(SB), NOSPLIT, $0-49
	MOVQ c+0(FP), DI
	MOVQ b+16(FP), DX
	MOVQ pstride+24(FP), R15
	SHLQ $3, R15
	MOVQ cols+40(FP), AX

group:
	// Four whole panels at a time: eight independent chains.
	CMPQ AX, $64
	JLT  single
	CMPB acc+48(FP), $0
	JEQ  gzero
	VMOVUPD 0(DI), Z0
	VMOVUPD 64(DI), Z1
	VMOVUPD 128(DI), Z2
	VMOVUPD 192(DI), Z3
	VMOVUPD 256(DI), Z4
	VMOVUPD 320(DI), Z5
	VMOVUPD 384(DI), Z6
	VMOVUPD 448(DI), Z7
	JMP gstart

gzero:
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7

gstart:
	MOVQ  a+8(FP), SI
	MOVQ  DX, BX
	LEAQ  (DX)(R15*2), R12
	ADDQ  R15, R12
	MOVQ  k+32(FP), CX
	TESTQ CX, CX
	JLE   gstore

gloop:
	VBROADCASTSD (SI), Z31
	VFMADD231PD (BX), Z31, Z0
	VFMADD231PD 64(BX), Z31, Z1
	VFMADD231PD (BX)(R15*1), Z31, Z2
	VFMADD231PD 64(BX)(R15*1), Z31, Z3
	VFMADD231PD (BX)(R15*2), Z31, Z4
	VFMADD231PD 64(BX)(R15*2), Z31, Z5
	VFMADD231PD (R12), Z31, Z6
	VFMADD231PD 64(R12), Z31, Z7
	ADDQ $128, BX
	ADDQ $128, R12
	ADDQ $8, SI
	DECQ CX
	JNZ  gloop

gstore:
	VMOVUPD Z0, 0(DI)
	VMOVUPD Z1, 64(DI)
	VMOVUPD Z2, 128(DI)
	VMOVUPD Z3, 192(DI)
	VMOVUPD Z4, 256(DI)
	VMOVUPD Z5, 320(DI)
	VMOVUPD Z6, 384(DI)
	VMOVUPD Z7, 448(DI)
	ADDQ $512, DI
	LEAQ (DX)(R15*4), DX
	SUBQ $64, AX
	JMP  group

single:
	TESTQ AX, AX
	JLE   done
	ZMASKS(8)
	CMPB  acc+48(FP), $0
	JEQ   szero
	VMOVUPD.Z (DI), K1, Z0
	VMOVUPD.Z 64(DI), K2, Z1
	JMP   sstart

szero:
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1

sstart:
	MOVQ  a+8(FP), SI
	MOVQ  DX, BX
	MOVQ  k+32(FP), CX
	TESTQ CX, CX
	JLE   sstore

sloop:
	VBROADCASTSD (SI), Z31
	VFMADD231PD (BX), Z31, Z0
	VFMADD231PD 64(BX), Z31, Z1
	ADDQ $128, BX
	ADDQ $8, SI
	DECQ CX
	JNZ  sloop

sstore:
	VMOVUPD Z0, K1, (DI)
	VMOVUPD Z1, K2, 64(DI)
	ADDQ $128, DI
	ADDQ R15, DX
	SUBQ $16, AX
	JMP  single

done:
	VZEROUPPER
	RET

// func featmapDenseRow32Z(c *float32, a *float32, b *float32, pstride, k, cols int, acc bool)
TEXT ·featmapDenseRow32Z(SB), NOSPLIT, $0-49
	MOVQ c+0(FP), DI
	MOVQ b+16(FP), DX
	MOVQ pstride+24(FP), R15
	SHLQ $2, R15
	MOVQ cols+40(FP), AX

group:
	// Four whole panels at a time: eight independent chains.
	CMPQ AX, $128
	JLT  single
	CMPB acc+48(FP), $0
	JEQ  gzero
	VMOVUPS 0(DI), Z0
	VMOVUPS 64(DI), Z1
	VMOVUPS 128(DI), Z2
	VMOVUPS 192(DI), Z3
	VMOVUPS 256(DI), Z4
	VMOVUPS 320(DI), Z5
	VMOVUPS 384(DI), Z6
	VMOVUPS 448(DI), Z7
	JMP gstart

gzero:
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7

gstart:
	MOVQ  a+8(FP), SI
	MOVQ  DX, BX
	LEAQ  (DX)(R15*2), R12
	ADDQ  R15, R12
	MOVQ  k+32(FP), CX
	TESTQ CX, CX
	JLE   gstore

gloop:
	VBROADCASTSS (SI), Z31
	VFMADD231PS (BX), Z31, Z0
	VFMADD231PS 64(BX), Z31, Z1
	VFMADD231PS (BX)(R15*1), Z31, Z2
	VFMADD231PS 64(BX)(R15*1), Z31, Z3
	VFMADD231PS (BX)(R15*2), Z31, Z4
	VFMADD231PS 64(BX)(R15*2), Z31, Z5
	VFMADD231PS (R12), Z31, Z6
	VFMADD231PS 64(R12), Z31, Z7
	ADDQ $128, BX
	ADDQ $128, R12
	ADDQ $4, SI
	DECQ CX
	JNZ  gloop

gstore:
	VMOVUPS Z0, 0(DI)
	VMOVUPS Z1, 64(DI)
	VMOVUPS Z2, 128(DI)
	VMOVUPS Z3, 192(DI)
	VMOVUPS Z4, 256(DI)
	VMOVUPS Z5, 320(DI)
	VMOVUPS Z6, 384(DI)
	VMOVUPS Z7, 448(DI)
	ADDQ $512, DI
	LEAQ (DX)(R15*4), DX
	SUBQ $128, AX
	JMP  group

single:
	TESTQ AX, AX
	JLE   done
	ZMASKS(16)
	CMPB  acc+48(FP), $0
	JEQ   szero
	VMOVUPS.Z (DI), K1, Z0
	VMOVUPS.Z 64(DI), K2, Z1
	JMP   sstart

szero:
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1

sstart:
	MOVQ  a+8(FP), SI
	MOVQ  DX, BX
	MOVQ  k+32(FP), CX
	TESTQ CX, CX
	JLE   sstore

sloop:
	VBROADCASTSS (SI), Z31
	VFMADD231PS (BX), Z31, Z0
	VFMADD231PS 64(BX), Z31, Z1
	ADDQ $128, BX
	ADDQ $4, SI
	DECQ CX
	JNZ  sloop

sstore:
	VMOVUPS Z0, K1, (DI)
	VMOVUPS Z1, K2, 64(DI)
	ADDQ $128, DI
	ADDQ R15, DX
	SUBQ $32, AX
	JMP  single

done:
	VZEROUPPER
	RET

// func featmapDenseRow64Y(c *float64, a *float64, b *float64, pstride, k, cols int, acc bool)
TEXT ·featmapDenseRow64Y(SB), NOSPLIT, $0-49
	MOVQ c+0(FP), DI
	MOVQ b+16(FP), DX
	MOVQ pstride+24(FP), R15
	SHLQ $3, R15
	MOVQ cols+40(FP), AX

group:
	// Two whole panels at a time: eight independent chains.
	CMPQ AX, $32
	JLT  single
	CMPB acc+48(FP), $0
	JEQ  gzero
	VMOVUPD 0(DI), Y0
	VMOVUPD 32(DI), Y1
	VMOVUPD 64(DI), Y2
	VMOVUPD 96(DI), Y3
	VMOVUPD 128(DI), Y4
	VMOVUPD 160(DI), Y5
	VMOVUPD 192(DI), Y6
	VMOVUPD 224(DI), Y7
	JMP gstart

gzero:
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7

gstart:
	MOVQ  a+8(FP), SI
	MOVQ  DX, BX
	MOVQ  k+32(FP), CX
	TESTQ CX, CX
	JLE   gstore

gloop:
	VBROADCASTSD (SI), Y15
	VFMADD231PD (BX), Y15, Y0
	VFMADD231PD 32(BX), Y15, Y1
	VFMADD231PD 64(BX), Y15, Y2
	VFMADD231PD 96(BX), Y15, Y3
	VFMADD231PD (BX)(R15*1), Y15, Y4
	VFMADD231PD 32(BX)(R15*1), Y15, Y5
	VFMADD231PD 64(BX)(R15*1), Y15, Y6
	VFMADD231PD 96(BX)(R15*1), Y15, Y7
	ADDQ $128, BX
	ADDQ $8, SI
	DECQ CX
	JNZ  gloop

gstore:
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	VMOVUPD Y4, 128(DI)
	VMOVUPD Y5, 160(DI)
	VMOVUPD Y6, 192(DI)
	VMOVUPD Y7, 224(DI)
	ADDQ $256, DI
	LEAQ (DX)(R15*2), DX
	SUBQ $32, AX
	JMP  group

single:
	// One panel, whole or the last part: four chains, masked.
	TESTQ AX, AX
	JLE   done
	YMASKS(ymask<>(SB), 4, 8)
	VMOVUPD Y12, Y8
	VMOVUPD Y13, Y9
	SUBQ  $8, AX
	YMASKS(ymask<>(SB), 4, 8)
	ADDQ  $8, AX
	CMPB  acc+48(FP), $0
	JEQ   szero
	VMASKMOVPD (DI), Y8, Y0
	VMASKMOVPD 32(DI), Y9, Y1
	VMASKMOVPD 64(DI), Y12, Y2
	VMASKMOVPD 96(DI), Y13, Y3
	JMP   sstart

szero:
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3

sstart:
	MOVQ  a+8(FP), SI
	MOVQ  DX, BX
	MOVQ  k+32(FP), CX
	TESTQ CX, CX
	JLE   sstore

sloop:
	VBROADCASTSD (SI), Y15
	VFMADD231PD (BX), Y15, Y0
	VFMADD231PD 32(BX), Y15, Y1
	VFMADD231PD 64(BX), Y15, Y2
	VFMADD231PD 96(BX), Y15, Y3
	ADDQ $128, BX
	ADDQ $8, SI
	DECQ CX
	JNZ  sloop

sstore:
	VMASKMOVPD Y0, Y8, (DI)
	VMASKMOVPD Y1, Y9, 32(DI)
	VMASKMOVPD Y2, Y12, 64(DI)
	VMASKMOVPD Y3, Y13, 96(DI)
	ADDQ $128, DI
	ADDQ R15, DX
	SUBQ $16, AX
	JMP  single

done:
	VZEROUPPER
	RET

// func featmapDenseRow32Y(c *float32, a *float32, b *float32, pstride, k, cols int, acc bool)
TEXT ·featmapDenseRow32Y(SB), NOSPLIT, $0-49
	MOVQ c+0(FP), DI
	MOVQ b+16(FP), DX
	MOVQ pstride+24(FP), R15
	SHLQ $2, R15
	MOVQ cols+40(FP), AX

group:
	// Two whole panels at a time: eight independent chains.
	CMPQ AX, $64
	JLT  single
	CMPB acc+48(FP), $0
	JEQ  gzero
	VMOVUPS 0(DI), Y0
	VMOVUPS 32(DI), Y1
	VMOVUPS 64(DI), Y2
	VMOVUPS 96(DI), Y3
	VMOVUPS 128(DI), Y4
	VMOVUPS 160(DI), Y5
	VMOVUPS 192(DI), Y6
	VMOVUPS 224(DI), Y7
	JMP gstart

gzero:
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7

gstart:
	MOVQ  a+8(FP), SI
	MOVQ  DX, BX
	MOVQ  k+32(FP), CX
	TESTQ CX, CX
	JLE   gstore

gloop:
	VBROADCASTSS (SI), Y15
	VFMADD231PS (BX), Y15, Y0
	VFMADD231PS 32(BX), Y15, Y1
	VFMADD231PS 64(BX), Y15, Y2
	VFMADD231PS 96(BX), Y15, Y3
	VFMADD231PS (BX)(R15*1), Y15, Y4
	VFMADD231PS 32(BX)(R15*1), Y15, Y5
	VFMADD231PS 64(BX)(R15*1), Y15, Y6
	VFMADD231PS 96(BX)(R15*1), Y15, Y7
	ADDQ $128, BX
	ADDQ $4, SI
	DECQ CX
	JNZ  gloop

gstore:
	VMOVUPS Y0, 0(DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	VMOVUPS Y4, 128(DI)
	VMOVUPS Y5, 160(DI)
	VMOVUPS Y6, 192(DI)
	VMOVUPS Y7, 224(DI)
	ADDQ $256, DI
	LEAQ (DX)(R15*2), DX
	SUBQ $64, AX
	JMP  group

single:
	// One panel, whole or the last part: four chains, masked.
	TESTQ AX, AX
	JLE   done
	YMASKS(ymask<>(SB), 8, 4)
	VMOVUPD Y12, Y8
	VMOVUPD Y13, Y9
	SUBQ  $16, AX
	YMASKS(ymask<>(SB), 8, 4)
	ADDQ  $16, AX
	CMPB  acc+48(FP), $0
	JEQ   szero
	VMASKMOVPS (DI), Y8, Y0
	VMASKMOVPS 32(DI), Y9, Y1
	VMASKMOVPS 64(DI), Y12, Y2
	VMASKMOVPS 96(DI), Y13, Y3
	JMP   sstart

szero:
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3

sstart:
	MOVQ  a+8(FP), SI
	MOVQ  DX, BX
	MOVQ  k+32(FP), CX
	TESTQ CX, CX
	JLE   sstore

sloop:
	VBROADCASTSS (SI), Y15
	VFMADD231PS (BX), Y15, Y0
	VFMADD231PS 32(BX), Y15, Y1
	VFMADD231PS 64(BX), Y15, Y2
	VFMADD231PS 96(BX), Y15, Y3
	ADDQ $128, BX
	ADDQ $4, SI
	DECQ CX
	JNZ  sloop

sstore:
	VMASKMOVPS Y0, Y8, (DI)
	VMASKMOVPS Y1, Y9, 32(DI)
	VMASKMOVPS Y2, Y12, 64(DI)
	VMASKMOVPS Y3, Y13, 96(DI)
	ADDQ $128, DI
	ADDQ R15, DX
	SUBQ $32, AX
	JMP  single

done:
	VZEROUPPER
	RET
