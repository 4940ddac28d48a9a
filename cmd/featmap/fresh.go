package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"

	"github.com/featmap/featmap"
	"github.com/featmap/featmap/codegen"
)

// outFile is the emitted Go file's base name: -o's, else featmap_gen.go.
func outFile(out string) string {
	if out == "" {
		return "featmap_gen.go"
	}
	return filepath.Base(out)
}

// genKey is the freshness key gen records in the file's featmap-key line:
// the SHA-256 of one text listing everything the emitted files depend on —
// featmap's version, the code generator's format (codegen.FormatVersion,
// which moves whenever what it writes changes), featmap's module version
// when this is a build of a release (moduleVersion), the spec's content,
// the data file's and the option files' content, the map's name, the
// package, the file's base name (it names the .bin) and the LP backend.
// The text is fixed in order and form, so the key is deterministic.
func genKey(spec *featmap.Spec, pkg, solverName, file string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "featmap-key 1\nversion %s\nformat %d\n", featmap.Version, codegen.FormatVersion)
	if v := moduleVersion(); v != "" {
		fmt.Fprintf(&b, "module %s\n", v)
	}
	fmt.Fprintf(&b, "spec sha256:%s\n", spec.Hash)
	if d := spec.Problem.Data; d != nil {
		fmt.Fprintf(&b, "data sha256:%s\n", d.SHA256)
	}
	for _, f := range spec.OptionFiles {
		fmt.Fprintf(&b, "option file %q sha256:%s\n", filepath.ToSlash(f.Path), f.SHA256)
	}
	fmt.Fprintf(&b, "name %s\npackage %s\nfile %s\nsolver %s\n", spec.Name, pkg, file, solverName)
	sum := sha256.Sum256([]byte(b.String()))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// modulePath is featmap's module.
const modulePath = "github.com/featmap/featmap"

// moduleVersion is featmap's module version when this binary is built from
// a published version of it (moduleVersionOf).
func moduleVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	return moduleVersionOf(bi)
}

// pseudoVersion matches the commit time and hash of a Go pseudo-version.
var pseudoVersion = regexp.MustCompile(`\d{14}-[0-9a-f]{12}`)

// moduleVersionOf is featmap's module version in the build bi when it
// names the code built: a dependency's version (a downstream module's go
// tool featmap, pseudo-versions included: they name a commit), the main
// module's when it is a release (go install …@v1.2.3); "" for a build of a
// local checkout — (devel), the pseudo-version and +dirty the go command
// stamps from a checkout's VCS state, a dependency replaced by a
// directory —, whose code no version names, so that keys do not move with
// the tool that built featmap.
func moduleVersionOf(bi *debug.BuildInfo) string {
	if bi.Main.Path == modulePath {
		v := bi.Main.Version
		if v == "" || v == "(devel)" || strings.Contains(v, "+") || pseudoVersion.MatchString(v) {
			return ""
		}
		return v
	}
	for _, d := range bi.Deps {
		if d.Path != modulePath {
			continue
		}
		if r := d.Replace; r != nil {
			if r.Version == "" {
				return ""
			}
			return r.Path + "@" + r.Version
		}
		return d.Version
	}
	return ""
}

// staleness returns "" when the Go file out is fresh — its featmap-key
// line is key, the data file it embeds and the -map file (if asked for)
// have the SHA-256 it states — and otherwise why not, in one line:
// what changed, from the file's header (codegen.ParseHeader: the code
// generator's format, featmap's version, the spec's and the data's
// SHA-256, the package) where it tells, else the key.
func staleness(out, mapOut, key string, spec *featmap.Spec, pkg string) string {
	src, err := os.ReadFile(out)
	if os.IsNotExist(err) {
		return "missing"
	}
	if err != nil {
		return err.Error()
	}
	h, err := codegen.ParseHeader(src)
	if err != nil {
		return fmt.Sprintf("it is not a file featmap gen wrote (%v)", err)
	}
	if h.Key == "" {
		return "it has no featmap-key line (not written by this featmap gen)"
	}
	if h.Key != key {
		var why []string
		if h.Format != codegen.FormatVersion {
			why = append(why, fmt.Sprintf("the code generator changed (format %d → %d)", h.Format, codegen.FormatVersion))
		}
		if h.Version != featmap.Version {
			why = append(why, fmt.Sprintf("featmap version changed (%s → %s)", h.Version, featmap.Version))
		}
		if old := strings.TrimPrefix(h.SpecHash, "sha256:"); old != spec.Hash {
			why = append(why, fmt.Sprintf("spec changed (sha256 %s → %s)", short(old), short(spec.Hash)))
		}
		newData := ""
		if d := spec.Problem.Data; d != nil {
			newData = d.SHA256
		}
		if h.Input != newData {
			why = append(why, fmt.Sprintf("data changed (sha256 %s → %s)", short(h.Input), short(newData)))
		}
		if h.Package != pkg {
			why = append(why, fmt.Sprintf("package changed (%s → %s)", h.Package, pkg))
		}
		if len(why) == 0 {
			why = append(why, fmt.Sprintf("options changed (-solver, the file name, a file the spec's options name, or featmap's module version; featmap-key %s → %s)",
				short(strings.TrimPrefix(h.Key, "sha256:")), short(strings.TrimPrefix(key, "sha256:"))))
		}
		return strings.Join(why, "; ")
	}
	if d := h.Data; d != nil {
		bin := filepath.Join(filepath.Dir(out), d.Name)
		data, err := os.ReadFile(bin)
		if err != nil {
			return fmt.Sprintf("its data file %s is missing", bin)
		}
		if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != d.SHA256 {
			return fmt.Sprintf("its data file %s changed (sha256 %s → %s)", bin, short(d.SHA256), short(hex.EncodeToString(sum[:])))
		}
	}
	if bytes.Contains(src, []byte("featmapDenseMul64(")) {
		// The map calls the package's dense kernels: they must be the
		// ones this gen writes.
		for _, f := range codegen.DenseFiles(pkg, featmap.Version) {
			path := filepath.Join(filepath.Dir(out), f.Name)
			b, err := os.ReadFile(path)
			switch {
			case err != nil:
				return fmt.Sprintf("its dense kernel file %s is missing", path)
			case !bytes.Equal(b, f.Data):
				return fmt.Sprintf("its dense kernel file %s changed", path)
			}
		}
	}
	if mapOut != "" {
		js, err := os.ReadFile(mapOut)
		switch {
		case err != nil:
			return fmt.Sprintf("the -map file %s is missing", mapOut)
		case h.Map == "":
			return fmt.Sprintf("it was written without the -map file %s", mapOut)
		}
		if sum := sha256.Sum256(js); hex.EncodeToString(sum[:]) != h.Map {
			return fmt.Sprintf("the -map file %s changed (sha256 %s → %s)", mapOut, short(h.Map), short(hex.EncodeToString(sum[:])))
		}
	}
	return ""
}

// short is the first 12 hex digits of a hash, or "none".
func short(h string) string {
	switch {
	case h == "":
		return "none"
	case len(h) > 12:
		return h[:12] + "…"
	}
	return h
}

// checkNames returns an error if a Go file of out's directory other than
// out (test files of the same package included, as they share its scope)
// already declares one of the exported names of the spec's map, which
// the emitted file would declare again.
func checkNames(spec *featmap.Spec, out string) error {
	names := codegen.ExportedNames(spec.Name)
	if spec.Problem.InDim() == 1 {
		names = append(names[:2], names[3:]...) // no NIn
	}
	if model, classes := spec.Predictor(); model {
		names = append(names, codegen.PredictorNames(spec.Name, classes)...)
	}
	dir := filepath.Dir(out)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil // the directory's absence is reported elsewhere
	}
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasSuffix(name, ".go") || name == filepath.Base(out) {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil || strings.HasSuffix(f.Name.Name, "_test") {
			continue
		}
		for _, d := range f.Decls {
			for _, id := range declNames(d) {
				for _, n := range names {
					if id == n {
						return fmt.Errorf("map name %s: the emitted %s is already declared in %s (rename the map)", spec.Name, n, filepath.Join(dir, name))
					}
				}
			}
		}
	}
	return nil
}

// declNames lists the package-level names a declaration declares
// (methods aside).
func declNames(d ast.Decl) []string {
	var out []string
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			out = append(out, d.Name.Name)
		}
	case *ast.GenDecl:
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.ValueSpec:
				for _, n := range s.Names {
					out = append(out, n.Name)
				}
			case *ast.TypeSpec:
				out = append(out, s.Name.Name)
			}
		}
	}
	return out
}
