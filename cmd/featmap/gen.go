package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/featmap/featmap"
	"github.com/featmap/featmap/codegen"
	"github.com/featmap/featmap/internal/atomicfile"
)

func init() { commands["gen"] = cmdGen }

// cmdGen designs the spec's map and writes it as Go source: to FILE with
// -o (atomically: a temporary file renamed over it, so a failing run leaves
// an existing FILE untouched), else to stdout.
func cmdGen(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	var c commonFlags
	c.register(fs)
	out := fs.String("o", "", "write the Go file here (default: stdout)")
	mapOut := fs.String("map", "", "also write the designed map, with its measured errors, as JSON here (for tests of the emitted code)")
	pkg := fs.String("pkg", "", "package clause of the file (default: $GOPACKAGE under go generate, else that of the Go files in the output directory — the current one for standard output —, else its name)")
	force := fs.Bool("force", false, "design and write even if -o FILE is fresh (also set by FEATMAP_FORCE=1 in the environment)")
	check := fs.Bool("check", false, "design nothing and write nothing: exit 0 if -o FILE is fresh, 1 with a one-line reason if it is stale")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: featmap gen [-o FILE [-check | -force]] [-map FILE.json] [-pkg NAME] [-solver purego|clp] SPEC.yaml")
		fmt.Fprintln(stderr, "Designs the spec's map and writes it as Go source (and a .bin data file beside -o for large maps).")
		fmt.Fprintln(stderr, "With -o, a FILE that is fresh is left alone and not redesigned: its featmap-key header line records")
		fmt.Fprintln(stderr, "the SHA-256 of the spec, its data and option files, the featmap version, the map and package names,")
		fmt.Fprintln(stderr, "the file name and -solver, and they are unchanged (and its .bin and the -map file exist as written).")
		fmt.Fprintln(stderr, "gen prints a line saying so on stderr and exits 0; -force redesigns anyway. -check, for CI, only")
		fmt.Fprintln(stderr, "tells: exit 0 when fresh, 1 with \"FILE is stale: <reason>\" on stderr, 2 on bad usage.")
		fmt.Fprintln(stderr, "The spec's emit: {tables: fast | compact | small} trades the file's size against speed for maps")
		fmt.Fprintln(stderr, "evaluated by polynomial pieces (interval and 2-D/3-D Fourier maps; README: Generated-file size).")
		fs.PrintDefaults()
		fmt.Fprintln(stderr, "example: featmap gen -o chi2_gen.go -pkg hist specs/table1-chi2-7d.yaml")
		fmt.Fprintln(stderr, "         featmap gen -check -o chi2_gen.go -pkg hist specs/table1-chi2-7d.yaml")
	}
	spec, opts, code := parseCommand(ctx, fs, &c, args, stderr)
	if code != exitOK {
		return code
	}
	if spec.Compare != nil {
		fmt.Fprintf(stderr, "featmap gen: %s is a comparison spec; gen needs a target and a method\n", spec.Path)
		return exitUsage
	}
	pkgName := packageName(*pkg, *out)
	// Every argument is checked before the design, which may take long.
	if *out != "" {
		if err := codegen.CheckFileName(filepath.Base(*out)); err != nil {
			fmt.Fprintf(stderr, "featmap gen: -o: %v\n", err)
			return exitUsage
		}
	}
	if !token.IsIdentifier(pkgName) || token.IsKeyword(pkgName) {
		fmt.Fprintf(stderr, "featmap gen: package name %q is not a Go identifier (set it with -pkg)\n", pkgName)
		return exitUsage
	}
	for flagName, path := range map[string]string{"-o": *out, "-map": *mapOut} {
		if path == "" {
			continue
		}
		if fi, err := os.Stat(filepath.Dir(path)); err != nil || !fi.IsDir() {
			fmt.Fprintf(stderr, "featmap gen: %s %s: the directory %s does not exist\n", flagName, path, filepath.Dir(path))
			return exitUsage
		}
		// Refused before anything opens it: reading a FIFO for the
		// freshness check would block, and a device or symlink is never
		// replaced (issue 18).
		if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
			fmt.Fprintf(stderr, "featmap gen: %s %s: not a regular file (%s): gen writes only to a regular file or a new path\n", flagName, path, atomicfile.Kind(fi.Mode()))
			return exitUsage
		}
	}
	if *check && *force {
		fmt.Fprintln(stderr, "featmap gen: -check and -force exclude each other")
		return exitUsage
	}
	if *check && *out == "" {
		fmt.Fprintln(stderr, "featmap gen: -check needs the file to check (-o FILE)")
		return exitUsage
	}
	if *out != "" {
		if err := checkNames(spec, *out); err != nil {
			fmt.Fprintf(stderr, "featmap gen: %s: %v\n", spec.Path, err)
			return exitUsage
		}
	}
	key := genKey(spec, pkgName, c.solver, outFile(*out))
	if *out != "" && (*check || !*force && os.Getenv("FEATMAP_FORCE") != "1") {
		switch reason := staleness(*out, *mapOut, key, spec, pkgName); {
		case reason == "":
			fmt.Fprintf(stderr, "featmap gen: %s is fresh (same spec, data, featmap version and options; -force redesigns)\n", *out)
			return exitOK
		case *check:
			fmt.Fprintf(stderr, "featmap gen: %s is stale: %s\n", *out, reason)
			return exitFailed
		}
	}
	tables, ok := codegen.TablesNamed(spec.Emit.Tables)
	if !ok { // the decoder accepts only codegen's names (TestEmitTablesNames)
		return failed(stderr, spec.Path, fmt.Errorf("%w: emit.tables %q is no codegen.Tables", featmap.ErrInternal, spec.Emit.Tables))
	}
	d, err := spec.Design(ctx, opts)
	if err != nil {
		return failed(stderr, spec.Path, err)
	}
	vm := d.Verified()
	specLines := spec.Describe()
	if d.Auto != nil {
		// method auto: which method won, by how much, stated with the spec.
		specLines = append(specLines, d.Auto.Summary())
	}
	info := codegen.Info{
		Name:     spec.Name,
		Package:  pkgName,
		Version:  featmap.Version,
		SpecPath: filepath.ToSlash(spec.Path),
		SpecHash: "sha256:" + spec.Hash,
		Spec:     strings.Join(specLines, "\n"),
		File:     outFile(*out),
		Key:      key,
		Tables:   tables,
	}
	gen, err := codegen.GenerateFiles(vm, info)
	switch {
	case errors.Is(err, codegen.ErrUnsupported):
		return failed(stderr, spec.Path, fmt.Errorf("%v (featmap design -json prints the map)", err))
	case err != nil:
		return failed(stderr, spec.Path, fmt.Errorf("%w: %v", featmap.ErrInternal, err))
	}
	var files []atomicfile.File
	if *mapOut != "" {
		js, err := json.MarshalIndent(vm, "", "  ")
		if err != nil {
			return failed(stderr, spec.Path, fmt.Errorf("%w: %v", featmap.ErrInternal, err))
		}
		files = append(files, atomicfile.File{Path: *mapOut, Data: append(js, '\n')})
	}
	if *out == "" {
		if len(gen) > 1 {
			fmt.Fprintf(stderr, "featmap gen: %s's constants go to a data file beside the Go file (%d bytes, embedded with //go:embed): give the Go file's path with -o\n", spec.Name, len(gen[1].Data))
			return exitUsage
		}
		if _, err := stdout.Write(gen[0].Data); err != nil {
			fmt.Fprintln(stderr, "featmap:", err)
			return exitFailed
		}
	} else {
		for _, f := range gen {
			files = append(files, atomicfile.File{Path: filepath.Join(filepath.Dir(*out), f.Name), Data: f.Data})
		}
	}
	if err := atomicfile.Write(files...); err != nil {
		fmt.Fprintln(stderr, "featmap:", err)
		return exitFailed
	}
	return exitOK
}

// packageName picks the emitted file's package: the flag, else go
// generate's $GOPACKAGE, else the package clause of the Go files already in
// the output directory (the first non-test file, in name order), else the
// directory's base name made into an identifier, else "featmap". Written
// to standard output, the file most likely lands in the current directory
// (featmap gen spec.yaml > x.go): its Go files' package clause, else
// "featmap".
func packageName(flagValue, out string) string {
	if flagValue != "" {
		return flagValue
	}
	if p := os.Getenv("GOPACKAGE"); p != "" {
		return p
	}
	if out == "" {
		if p := dirPackage("."); p != "" {
			return p
		}
	}
	if out != "" {
		if p := dirPackage(filepath.Dir(out)); p != "" {
			return p
		}
		abs, err := filepath.Abs(filepath.Dir(out))
		if err == nil {
			var b strings.Builder
			for _, r := range strings.ToLower(filepath.Base(abs)) {
				if unicode.IsLetter(r) || unicode.IsDigit(r) && b.Len() > 0 {
					b.WriteRune(r)
				}
			}
			if b.Len() > 0 {
				return b.String()
			}
		}
	}
	return "featmap"
}

// dirPackage returns the package clause of the first non-test Go file of
// dir, in name order, reading no further than the clause; "" without one.
func dirPackage(dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, name), nil, parser.PackageClauseOnly)
		if err == nil && f.Name != nil && f.Name.Name != "" {
			return f.Name.Name
		}
	}
	return ""
}
