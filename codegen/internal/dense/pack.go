package dense

// What codegen needs of this package at generation time: the packed
// layout of the constant matrices it writes for the emitted code. This
// file is not copied into the emitted package.

// Panel64 and Panel32 are the columns of a packed panel of float64 and of
// float32: the panel stride of an m×k matrix is Panel64·k (Panel32·k).
const (
	Panel64 = featmapDensePanel64
	Panel32 = featmapDensePanel32
)

// Packed64 is the length of an m×k matrix packed by Pack64.
func Packed64(m, k int) int { return featmapDensePacked64(m, k) }

// Packed32 is the length of an m×k matrix packed by Pack32.
func Packed32(m, k int) int { return featmapDensePacked32(m, k) }

// Pack64 packs the m×k row-major matrix w into dst (Packed64(m, k)
// numbers) as the emitted products read it: panel p holds rows 16p to
// 16p + 15 of w, k steps of 16 numbers, zeros beyond row m.
func Pack64(dst, w []float64, m, k int) { featmapDensePack64(dst, w, m, k) }

// Pack32 is Pack64 in panels of 32, rounded to float32.
func Pack32(dst []float32, w []float64, m, k int) { featmapDensePack32(dst, w, m, k) }
