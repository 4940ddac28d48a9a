package spec

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/featmap/featmap/datafile"
	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/internal/atomicfile"
)

// This file loads a spec: the spec file, the files its methods' options
// name and its data file, so that the spec value is complete when Load
// returns and nothing changes it afterwards.

// MaxSpecBytes is the largest spec file Load reads.
const MaxSpecBytes = 1 << 20

// Load reads the spec at path (a regular file of at most MaxSpecBytes)
// and decodes it with Parse; then it reads the files its methods' options
// name (design.FileLoader), relative to the spec's directory unless
// absolute, and its data file (datafile.Read, into Problem.Data), telling
// progress (if not nil) how far a long read is and stopping when ctx ends,
// with an error that wraps ctx's: Ctrl-C need not wait for the whole file.
// A file's error is a *SpecError at the option's key whose message names
// the file and its line; a data file's is a *datafile.DataError.
func Load(ctx context.Context, path string, progress func(string)) (*Spec, error) {
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		return nil, fileError(path, err)
	case !fi.Mode().IsRegular():
		return nil, &SpecError{Path: path, Msg: fmt.Sprintf("not a regular file (%s): featmap reads specs only from regular files", atomicfile.Kind(fi.Mode()))}
	case fi.Size() > MaxSpecBytes:
		return nil, &SpecError{Path: path, Msg: fmt.Sprintf("%d bytes, more than the %d a spec may have", fi.Size(), MaxSpecBytes)}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fileError(path, err)
	}
	// The file may have grown since: read at most one byte beyond the limit.
	data, err := io.ReadAll(io.LimitReader(f, MaxSpecBytes+1))
	f.Close()
	switch {
	case err != nil:
		return nil, err
	case len(data) > MaxSpecBytes:
		return nil, &SpecError{Path: path, Msg: fmt.Sprintf("more than the %d a spec may have (it grew while read)", MaxSpecBytes)}
	}
	s, err := Parse(path, data)
	if err != nil {
		return nil, err
	}
	open := func(name string) (io.ReadCloser, string, error) {
		if !filepath.IsAbs(name) {
			name = filepath.Join(filepath.Dir(path), name)
		}
		f, err := os.Open(name)
		if err != nil {
			return nil, name, err
		}
		return &hashingFile{f: f, h: sha256.New(), path: name, spec: s}, name, nil
	}
	for _, m := range s.methods() {
		if fl, ok := m.Method.(design.FileLoader); ok {
			if err := fl.LoadFiles(open); err != nil {
				return nil, m.optionErr(path, err)
			}
		}
	}
	if s.Data != nil {
		r, err := datafile.Read(ctx, s.Path, s.Data, s.Problem, datafile.Options{Progress: progress})
		if err != nil {
			return nil, err
		}
		s.Problem.Data, s.DataHeader = r.Data, r.Header
		s.Warnings = append(s.Warnings, r.Warnings...)
		if err := decideTask(s, r.Labels); err != nil {
			return nil, err
		}
		if err := checkKernelsLabels(s, r.Labels); err != nil {
			return nil, err
		}
		if err := checkDataBudget(s); err != nil {
			return nil, err
		}
		if err := checkDataOptions(s); err != nil {
			return nil, err
		}
		if err := checkLearn(s); err != nil {
			return nil, err
		}
	}
	for _, m := range s.methods() {
		if d, ok := m.Method.(design.Deprecator); ok {
			if key, msg := d.Deprecated(); key != "" {
				s.Warnings = append(s.Warnings, (&SpecError{Path: path, Line: m.keys[key], Field: child(m.field, key), Msg: msg}).Error())
			}
		}
	}
	return s, nil
}

// fileError is the *SpecError of a spec file that could not be opened:
// "path: no such file or directory", not the system call's "stat path: …";
// errors.Is(err, fs.ErrNotExist) holds as for the bare error.
func fileError(path string, err error) error {
	msg := err.Error()
	var pe *fs.PathError
	if errors.As(err, &pe) {
		msg = pe.Err.Error()
	}
	return &SpecError{Path: path, Msg: msg, Err: err}
}

// checkDataBudget checks the target against the verification budget
// again once the data is read: verifying on its held-out rows adds to the
// cost (fmap.VerifyCost), which the spec alone could not tell; and
// against the dimensions the method makes from so many rows (nystroem's
// landmarks are rows to fit).
func checkDataBudget(s *Spec) error {
	t, d := s.Target, s.Problem.Data
	if t == nil || d == nil {
		return nil
	}
	top, why := fmap.MaxVerifiedDim(s.Problem)
	if s.Method != nil {
		top, why = design.MaxVerifiedDim(s.Method.Method, s.Problem)
	}
	field, dim := "target.dim", t.Dim
	if t.MaxError > 0 {
		field, dim = "target.max_dim", t.MaxDim
	}
	if dim > top {
		return &SpecError{Path: s.Path, Line: t.line, Field: field, Msg: fmt.Sprintf("%d: %s, with the %d held-out rows of %s (data.file): at most %d", dim, why, len(d.Held), d.File, top)}
	}
	if s.Method != nil && t.Dim > 0 {
		if ds := s.Method.Method.Dims(s.Problem); !ds.Has(t.Dim) {
			return &SpecError{Path: s.Path, Line: t.line, Field: field, Msg: fmt.Sprintf("%d: %s", dim, ds.Refusal(t.Dim))}
		}
	}
	return nil
}

// checkDataOptions checks every method's options against the problem
// again once the data is read (design.OptionChecker): some depend on its
// rows (nystroem's n_landmarks, at most the rows to fit), which the spec
// alone could not tell.
func checkDataOptions(s *Spec) error {
	for _, m := range s.methods() {
		if c, ok := m.Method.(design.OptionChecker); ok {
			if err := c.CheckOptions(s.Problem); err != nil {
				return m.optionErr(s.Path, err)
			}
		}
	}
	return nil
}

// methods returns the spec's method (a spec with kernels has one too,
// rff-group-lasso's), or its compared methods; none for a Spec of neither
// shape, which Parse never returns.
func (s *Spec) methods() []*MethodSpec {
	if s.Method != nil {
		return []*MethodSpec{s.Method}
	}
	if s.Compare == nil {
		return nil
	}
	var out []*MethodSpec
	for i := range s.Compare.Methods {
		out = append(out, &s.Compare.Methods[i])
	}
	return out
}

// hashingFile is an option's file as Load hands it to a FileLoader: on
// Close it reads what the loader left unread and records the SHA-256 of
// the whole content in the spec's OptionFiles.
type hashingFile struct {
	f    *os.File
	h    hash.Hash
	path string
	spec *Spec
}

// Read reads the file, hashing what it reads.
func (r *hashingFile) Read(p []byte) (int, error) {
	n, err := r.f.Read(p)
	r.h.Write(p[:n])
	return n, err
}

// Close hashes the rest of the file, closes it and records it.
func (r *hashingFile) Close() error {
	_, err := io.Copy(r.h, r.f)
	if cerr := r.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		r.spec.OptionFiles = append(r.spec.OptionFiles, InputFile{Path: r.path, SHA256: hex.EncodeToString(r.h.Sum(nil))})
	}
	return err
}
