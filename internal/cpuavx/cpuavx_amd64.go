package cpuavx

// AVX reports whether the processor and the operating system support AVX:
// CPUID's AVX and OSXSAVE bits, and XGETBV's saved SSE and AVX states.
var AVX = cpuAVX()

// cpuAVX reports AVX support (cpuavx_amd64.s).
func cpuAVX() bool
