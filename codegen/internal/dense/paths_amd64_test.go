package dense

import "testing"

// eachPath runs f once per code path this processor has: AVX-512,
// AVX2 and the Go of dense.go, with the feature flags set for it.
func eachPath(t *testing.T, f func(t *testing.T)) {
	avx2, avx512 := featmapDenseAVX2, featmapDenseAVX512
	defer func() { featmapDenseAVX2, featmapDenseAVX512 = avx2, avx512 }()
	if avx512 {
		t.Run("avx512", f)
	}
	if avx2 {
		featmapDenseAVX512 = false
		t.Run("avx2", f)
	}
	featmapDenseAVX2, featmapDenseAVX512 = false, false
	t.Run("go", f)
}

// pathName names the path the flags select now.
func pathName() string {
	switch {
	case featmapDenseAVX512:
		return "avx512"
	case featmapDenseAVX2:
		return "avx2"
	}
	return "go"
}

// setPath selects a path by name for a benchmark, reporting whether this
// processor has it; restore undoes it.
func setPath(name string) (ok bool, restore func()) {
	avx2, avx512 := featmapDenseAVX2, featmapDenseAVX512
	restore = func() { featmapDenseAVX2, featmapDenseAVX512 = avx2, avx512 }
	switch name {
	case "avx512":
		return avx512, restore
	case "avx2":
		featmapDenseAVX512 = false
		return avx2, restore
	}
	featmapDenseAVX2, featmapDenseAVX512 = false, false
	return true, restore
}
