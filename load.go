package featmap

import (
	"context"

	"github.com/featmap/featmap/learn"
	"github.com/featmap/featmap/registry"
	"github.com/featmap/featmap/spec"
)

// Specs name featmap's methods: registry's table, given to package spec,
// which imports no method (spec.UseMethods); a kernels section means what
// package learn says it means (learn.Kernels, spec.UseKernels).
func init() {
	spec.UseMethods(registry.Table{})
	spec.UseKernels(learn.Kernels{})
}

// Spec is a loaded spec: the decoded spec value (spec.Spec: its sections,
// its problem, its data read), which nothing changes once it is loaded,
// and the front door's ways to run it (Design, DesignDim, Auto,
// RunComparison).
type Spec struct {
	*spec.Spec
}

// ParseSpec decodes and validates a spec given its content (spec.Parse);
// path is only used in messages. It reads no file the spec names.
func ParseSpec(path string, data []byte) (*Spec, error) {
	s, err := spec.Parse(path, data)
	if err != nil {
		return nil, err
	}
	return &Spec{s}, nil
}

// LoadSpec reads the spec at path and the files it names: its methods'
// option files and its data file (spec.Load). Its errors are
// *spec.SpecError values, or a data file's *datafile.DataError.
func LoadSpec(path string) (*Spec, error) { return LoadSpecProgress(path, nil) }

// LoadSpecProgress is LoadSpec with progress messages for long reads: a
// data file reports the rows read and the share of the file behind them
// every datafile.DefaultProgressRows rows. A nil progress says nothing.
func LoadSpecProgress(path string, progress func(string)) (*Spec, error) {
	return LoadSpecContext(context.Background(), path, progress)
}

// LoadSpecContext is LoadSpecProgress that stops reading the data file
// when ctx ends (it checks every datafile.CheckRows rows), with an error
// that wraps ctx's: Ctrl-C need not wait for the whole file.
func LoadSpecContext(ctx context.Context, path string, progress func(string)) (*Spec, error) {
	s, err := spec.Load(ctx, path, progress)
	if err != nil {
		return nil, err
	}
	return &Spec{s}, nil
}
