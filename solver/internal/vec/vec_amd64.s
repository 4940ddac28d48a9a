#include "textflag.h"

// The four-wide forms of the solver's axpy and axpy8 (solver/simplex/vector.go).
// VMULPD and VADDPD round each of their four entries as MULSD and ADDSD,
// the Go code's scalar instructions, round one: the same products and
// sums, bit for bit (solver/simplex's TestVectorKernelsBitForBit). No fused
// multiply-add is used. The tails (fewer than four entries) take the
// scalar VEX forms of the same instructions. VZEROUPPER before returning
// to the Go code's SSE instructions avoids the processor's penalty for
// mixing the two.

// func Axpy(y []float64, a float64, x []float64)
TEXT ·Axpy(SB), NOSPLIT, $0-56
	MOVQ         y_base+0(FP), DI
	MOVQ         y_len+8(FP), CX
	VBROADCASTSD a+24(FP), Y0
	MOVQ         x_base+32(FP), SI
	XORQ         BX, BX
	MOVQ         CX, DX
	ANDQ         $-8, DX
	JZ           tail4

loop8:
	VMULPD  (SI)(BX*8), Y0, Y1
	VADDPD  (DI)(BX*8), Y1, Y1
	VMULPD  32(SI)(BX*8), Y0, Y2
	VADDPD  32(DI)(BX*8), Y2, Y2
	VMOVUPD Y1, (DI)(BX*8)
	VMOVUPD Y2, 32(DI)(BX*8)
	ADDQ    $8, BX
	CMPQ    BX, DX
	JLT     loop8

tail4:
	MOVQ CX, DX
	SUBQ BX, DX
	CMPQ DX, $4
	JLT  tail1
	VMULPD  (SI)(BX*8), Y0, Y1
	VADDPD  (DI)(BX*8), Y1, Y1
	VMOVUPD Y1, (DI)(BX*8)
	ADDQ    $4, BX

tail1:
	CMPQ   BX, CX
	JGE    done
	VMULSD (SI)(BX*8), X0, X1
	VADDSD (DI)(BX*8), X1, X1
	VMOVSD X1, (DI)(BX*8)
	INCQ   BX
	JMP    tail1

done:
	VZEROUPPER
	RET

// func Axpy8(y []float64, a *[8]float64, x *[8][]float64)
TEXT ·Axpy8(SB), NOSPLIT, $0-40
	MOVQ y_base+0(FP), DI
	MOVQ y_len+8(FP), CX
	MOVQ a+24(FP), AX
	MOVQ x+32(FP), SI
	// The columns' base pointers (a slice header is 24 bytes).
	MOVQ 0(SI), R8
	MOVQ 24(SI), R9
	MOVQ 48(SI), R10
	MOVQ 72(SI), R11
	MOVQ 96(SI), R12
	MOVQ 120(SI), R13
	MOVQ 144(SI), DX
	MOVQ 168(SI), SI
	VBROADCASTSD 0(AX), Y0
	VBROADCASTSD 8(AX), Y1
	VBROADCASTSD 16(AX), Y2
	VBROADCASTSD 24(AX), Y3
	VBROADCASTSD 32(AX), Y4
	VBROADCASTSD 40(AX), Y5
	VBROADCASTSD 48(AX), Y6
	VBROADCASTSD 56(AX), Y7
	XORQ BX, BX
	MOVQ CX, AX
	ANDQ $-4, AX
	JZ   tail

loop4:
	// v = y + a0·x0, then v += a1·x1, …, v += a7·x7.
	VMULPD  (R8)(BX*8), Y0, Y8
	VADDPD  (DI)(BX*8), Y8, Y8
	VMULPD  (R9)(BX*8), Y1, Y9
	VADDPD  Y9, Y8, Y8
	VMULPD  (R10)(BX*8), Y2, Y9
	VADDPD  Y9, Y8, Y8
	VMULPD  (R11)(BX*8), Y3, Y9
	VADDPD  Y9, Y8, Y8
	VMULPD  (R12)(BX*8), Y4, Y9
	VADDPD  Y9, Y8, Y8
	VMULPD  (R13)(BX*8), Y5, Y9
	VADDPD  Y9, Y8, Y8
	VMULPD  (DX)(BX*8), Y6, Y9
	VADDPD  Y9, Y8, Y8
	VMULPD  (SI)(BX*8), Y7, Y9
	VADDPD  Y9, Y8, Y8
	VMOVUPD Y8, (DI)(BX*8)
	ADDQ    $4, BX
	CMPQ    BX, AX
	JLT     loop4

tail:
	CMPQ   BX, CX
	JGE    done8
	VMULSD (R8)(BX*8), X0, X8
	VADDSD (DI)(BX*8), X8, X8
	VMULSD (R9)(BX*8), X1, X9
	VADDSD X9, X8, X8
	VMULSD (R10)(BX*8), X2, X9
	VADDSD X9, X8, X8
	VMULSD (R11)(BX*8), X3, X9
	VADDSD X9, X8, X8
	VMULSD (R12)(BX*8), X4, X9
	VADDSD X9, X8, X8
	VMULSD (R13)(BX*8), X5, X9
	VADDSD X9, X8, X8
	VMULSD (DX)(BX*8), X6, X9
	VADDSD X9, X8, X8
	VMULSD (SI)(BX*8), X7, X9
	VADDSD X9, X8, X8
	VMOVSD X8, (DI)(BX*8)
	INCQ   BX
	JMP    tail

done8:
	VZEROUPPER
	RET
