// Package cpuavx says whether the processor and the operating system
// support AVX, for the project's AVX assembly (solver/internal/vec,
// internal/vtrig). It imports nothing.
package cpuavx
