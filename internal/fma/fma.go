// Package fma tells whether this build fuses multiply-adds: whether the
// compiler turns x·y + z into one rounding (arm64, amd64 at GOAMD64=v3)
// or two (amd64 at v1 and v2). featmap's designs are chaotic in the last
// bits their LPs see, so a fused build designs maps that differ from the
// reference build's; the tests that compare with recorded numbers (the
// golden files of codegen, the quality ledger) ask Reference first.
package fma

import "runtime"

// x·y + z is exactly 2⁻⁶⁰, which a separate multiplication rounds away:
// multiplyAdd gives it where the compiler fuses multiply-adds.
var x, y, z = 1 + 0x1p-30, 1 + 0x1p-30, -(1 + 0x1p-29)

// multiplyAdd is x·y + z as the compiler makes it. Not inlined, so that
// its operands arrive in registers: with operands loaded from memory the
// amd64 compiler takes the load into the multiplication and no longer
// fuses.
//
//go:noinline
func multiplyAdd(x, y, z float64) float64 { return x*y + z }

// Fused reports whether this build fuses x·y + z into one rounding.
func Fused() bool { return multiplyAdd(x, y, z) != 0 }

// Reference reports whether this build computes as the machine featmap's
// recorded numbers come from: amd64 without fused multiply-adds.
func Reference() bool { return runtime.GOARCH == "amd64" && !Fused() }
