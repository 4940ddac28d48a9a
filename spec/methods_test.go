package spec

import (
	"github.com/featmap/featmap/learn"
	"github.com/featmap/featmap/registry"
)

// The tests read specs against featmap's methods and its kernels decoder,
// as package featmap gives them.
func init() {
	UseMethods(registry.Table{})
	UseKernels(learn.Kernels{})
}
