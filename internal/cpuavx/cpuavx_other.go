//go:build !amd64

package cpuavx

// AVX is false off amd64.
const AVX = false
