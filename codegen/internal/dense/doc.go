// Package dense holds the dense kernels of featmap's emitted random-feature
// and Nyström maps: products of a tile of input rows against a fixed
// matrix packed in panels (featmapDenseMul64, featmapDenseMul32), and the
// sines, cosines and exponentials of a whole tile (dense_math.go). codegen
// copies the files of this package, but for the tests, this doc.go and
// pack.go, into the package of the emitted code with that package's clause
// (codegen's TestDenseEmbedded builds them so), so every identifier in
// them is unexported and starts with featmapDense, they import only the
// standard library, and their only package-level variables are the
// processor's features, read once at init (dense_amd64.go); pack.go
// exports the packed layout to gen.
//
// On amd64 the products and the functions run in assembly, AVX-512 where
// the processor and the operating system have it, else AVX2 with FMA,
// chosen at run time; elsewhere, and on amd64 processors without AVX2, in
// register-tiled Go. The layout of a packed matrix, the error of every
// function and the call sequences of the emitted maps are in
// docs/measurements/dense.md.
package dense
